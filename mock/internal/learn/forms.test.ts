import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type IdForm, idFormOf, idMaker } from './id-form.ts';
import { moneyFormOf, moneyTokens, withTwoDecimals } from './money-form.ts';
import { agreedTimestampForm, timestampFormOf, timestampWriter } from './timestamp-form.ts';

const SEED = 28;

const idForms: fc.Arbitrary<IdForm> = fc.oneof(
  fc.record({ kind: fc.constant('uuid' as const), upper: fc.boolean() }),
  fc.constant({ kind: 'ulid' as const }),
  fc.record({ kind: fc.constant('digits' as const), length: fc.integer({ min: 6, max: 19 }) }),
  fc.record({
    kind: fc.constant('token' as const),
    prefix: fc.constantFrom('', 'txn_', 'sbx_at_', 'acct-', 'wpo_'),
    alphabet: fc.constantFrom(
      'hex',
      'HEX',
      'lower-alphanumeric',
      'upper-alphanumeric',
      'alphanumeric',
      'digits',
    ),
    length: fc.integer({ min: 8, max: 40 }),
  }),
);

describe('id forms', () => {
  it('an id made in the form of recorded ones reads as that form among them', () => {
    fc.assert(
      fc.property(idForms, (form) => {
        const make = idMaker(form);
        const recorded = Array.from({ length: 12 }, make);
        const learned = idFormOf(recorded);
        expect(learned).toBeDefined();
        const made = Array.from({ length: 12 }, idMaker(learned as IdForm));
        expect(idFormOf([...recorded, ...made])).toEqual(learned);
      }),
      { seed: SEED, numRuns: 200 },
    );
  });

  it('reads the forms sandboxes write', () => {
    expect(idFormOf(['5e078226-709d-4dfa-bba4-b495f7a7a11d'])).toEqual({ kind: 'uuid', upper: false });
    expect(idFormOf(['01ARZ3NDEKTSV4RRFFQ69G5FAV'])).toEqual({ kind: 'ulid' });
    expect(idFormOf(['7000007919', '7000015838'])).toEqual({ kind: 'digits', length: 10 });
    expect(idFormOf(['txn_000000000001', 'txn_00000000001f'])).toEqual({
      kind: 'token',
      prefix: 'txn_',
      alphabet: 'hex',
      length: 12,
    });
    // Two forms are no one form.
    expect(idFormOf(['txn_000000000001', '5e078226-709d-4dfa-bba4-b495f7a7a11d'])).toBeUndefined();
  });
});

describe('timestamp forms', () => {
  it('an instant written in a learned form reads back as that form, at the same millisecond', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('Z', '+00:00', '+0000', '-00:00'),
        fc.integer({ min: 0, max: 9 }),
        fc.integer({ min: 0, max: 4_102_444_800_000 }),
        (offset, fraction, ms) => {
          const written = timestampWriter({ offset, fraction })(ms);
          expect(timestampFormOf([written])).toEqual({ offset, fraction });
          const precision = 10 ** Math.max(0, 3 - fraction);
          expect(Date.parse(written.replace(/[+-]00:?00$/, 'Z'))).toBe(ms - (ms % precision));
        },
      ),
      { seed: SEED, numRuns: 300 },
    );
  });

  it('offsets that disagree are no one form; missing fraction digits on a whole second are', () => {
    expect(timestampFormOf(['2026-01-01T00:00:00Z', '2026-01-01T00:00:00+00:00'])).toBeUndefined();
    expect(timestampFormOf(['2026-11-24T18:53:26.123000+00:00', '2026-11-24T18:53:27+00:00'])).toEqual({
      offset: '+00:00',
      fraction: 6,
    });
  });
});

describe('timestamp forms of one record kind (evidence before a rule)', () => {
  it('is learned from two samples or more that agree, offset and fraction digits alike', () => {
    expect(agreedTimestampForm(['2026-01-01T00:00:00Z', '2026-01-01T00:00:07Z'])).toEqual({
      form: { offset: 'Z', fraction: 0 },
    });
  });

  it('stays free with one sample, or with samples that disagree, and says why', () => {
    expect(agreedTimestampForm(['2024-06-01T10:00:00.125Z']).why).toBe(
      '1 sample (Z, 3 fraction digits): too few',
    );
    expect(agreedTimestampForm(['2026-01-01T00:00:00Z', '2024-06-01T10:00:00.125Z']).why).toBe(
      '0 or 3 fraction digits seen',
    );
    expect(agreedTimestampForm(['2026-01-01T00:00:00Z', '2026-01-01T00:00:00+00:00']).why).toBe(
      'offsets Z and +00:00 seen',
    );
  });
});

describe('money forms', () => {
  it('amounts written with two decimals read back as the same numbers, in the two-decimal form', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.integer({ min: 0, max: 100_000_000 }).map((cents) => cents / 100),
          { minLength: 1 },
        ),
        (amounts) => {
          const body = { data: { items: amounts.map((amount) => ({ amount, name: 'x' })), balance: 10 } };
          const text = withTwoDecimals(body, new Set(['amount', 'balance']));
          expect(JSON.parse(text)).toEqual(body);
          expect(moneyFormOf(moneyTokens(text, ['amount', 'balance']))).toBe('two-decimals');
        },
      ),
      { seed: SEED, numRuns: 200 },
    );
  });

  it('reads what a sandbox writes: 125.50 is two decimals, 125.5 the shortest, 12.34 either', () => {
    expect(moneyFormOf(['125.50', '12.34'])).toBe('two-decimals');
    expect(moneyFormOf(['125.5', '40'])).toBe('shortest');
    expect(moneyFormOf(['12.34'])).toBeUndefined();
    expect(moneyFormOf(['125.50', '40'])).toBeUndefined();
  });
});
