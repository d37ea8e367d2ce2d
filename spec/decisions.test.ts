import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { collectDecisions, compileSchema, documentedSchema, hasAtMostDecimals, loadSpec } from './index.ts';

const spec = await loadSpec();

describe('decisions', () => {
  it('are collected once per marked node, with a reason each', () => {
    const pointers = spec.decisions.map((decision) => decision.pointer);
    expect(new Set(pointers).size).toBe(pointers.length);
    expect(pointers).toContain('/components/schemas/Amount/allOf/0');
    expect(pointers).toContain('/x-pacu-decisions/token-lifetime');
    for (const decision of spec.decisions) expect(decision.reason.length).toBeGreaterThan(20);
  });

  it('finds marks at any depth, in arrays too', () => {
    expect(collectDecisions({ a: [{ b: { 'x-pacu-decision': 'because' } }] })).toEqual([
      { pointer: '/a/0/b', reason: 'because' },
    ]);
  });

  it('give one documented view per schema, whose own nodes no caller can change', () => {
    const request = spec.schema('WalletPayoutRequest');
    const view = documentedSchema(request);
    // compileSchema() keeps what it compiled by object: a new view per call compiled it again.
    expect(documentedSchema(request)).toBe(view);
    expect(Object.isFrozen(view)).toBe(true);
    expect(Object.isFrozen(view.properties)).toBe(true);
    expect(Object.isFrozen(request)).toBe(false);
  });

  it('drop out of the documented view of a schema and stay in the strict one', () => {
    const request = spec.schema('WalletPayoutRequest');
    expect(compileSchema(request)({})).not.toEqual([]);
    expect(compileSchema(documentedSchema(request))({})).toEqual([]);
    const amount = { account_id: 'a', amount: 12.345, wallet_id: 'x@example.com', recipient_name: 'X' };
    expect(compileSchema(request)(amount).map((issue) => issue.path)).toEqual(['/amount']);
    expect(compileSchema(documentedSchema(request))(amount)).toEqual([]);
  });

  it('keep what the description states in the documented view', () => {
    const transfer = documentedSchema(spec.schema('UsdTransferRequest'));
    expect(compileSchema(transfer)({ amount: 'ten' }).map((issue) => issue.message)).toEqual(
      expect.arrayContaining(['must have required property reference', 'must be number']),
    );
  });
});

describe('hasAtMostDecimals', () => {
  it('accepts every whole-cent amount', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 100_000_000_000 }), (cents) => hasAtMostDecimals(cents / 100, 2)),
      { seed: 42 },
    );
  });

  it('rejects every amount with a non-zero third decimal', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 1_000_000_000 }),
        fc.integer({ min: 1, max: 9 }),
        (mills, last) => {
          return !hasAtMostDecimals((mills * 10 + last) / 1000, 2);
        },
      ),
      { seed: 42 },
    );
  });

  it('reads the places of the shortest decimal form, for any number and count of places', () => {
    /** The definition, straight from the text: places after the point, less the exponent. */
    const places = (value: number): number => {
      const [mantissa = '', exponent = '0'] = String(value).split('e');
      return (mantissa.split('.')[1] ?? '').length - Number(exponent);
    };
    // Amounts a step either side of a whole number of hundredths, and doubles of every size.
    const nextTo = fc
      .tuple(fc.integer({ min: -1e12, max: 1e12 }), fc.constantFrom(-1, 0, 1))
      .map(([cents, step]) => {
        const bits = new Float64Array([cents / 100]);
        new BigInt64Array(bits.buffer)[0] += BigInt(step);
        return bits[0] as number;
      });
    fc.assert(
      fc.property(
        fc.oneof(nextTo, fc.double({ noNaN: true, noDefaultInfinity: true })),
        fc.integer({ min: 0, max: 8 }),
        (value, count) => hasAtMostDecimals(value, count) === places(value) <= count,
      ),
      { seed: 42, numRuns: 5000 },
    );
  });

  it('rejects tiny amounts in exponent form and non-finite numbers', () => {
    expect(hasAtMostDecimals(1e-7, 2)).toBe(false);
    expect(hasAtMostDecimals(1e21, 2)).toBe(true);
    expect(hasAtMostDecimals(Number.NaN, 2)).toBe(false);
  });
});
