import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PACU_PAGING, type Paging } from '../behaviour.ts';
import { learnPaging, learnPagingLimits, type PageSample, type PageTry } from './paging.ts';
import { applyPlan, type FieldFacts, learnRecordPlan, type RecordSample } from './record-plan.ts';

const SEED = 28;

/** A sandbox's user list under `paging`: what it answers to `query` with `total` users. */
function page(paging: Paging, total: number, query: URLSearchParams, entry: number): PageSample {
  const number = (name: string, fallback: number) => (query.has(name) ? Number(query.get(name)) : fallback);
  const size = Math.max(1, number(paging.size, paging.defaultSize));
  const position = number(paging.position, paging.style === 'page' ? paging.first : 0);
  const start = Math.max(0, paging.style === 'page' ? (position - paging.first) * size : position);
  return {
    entry,
    query,
    page: paging.style === 'page' ? position : Math.floor(position / size) + paging.first,
    items: Math.max(0, Math.min(size, total - start)),
    totalCount: total,
    totalPages: Math.ceil(total / size),
  };
}

const pagings: fc.Arbitrary<Paging> = fc
  .record({
    style: fc.constantFrom('page' as const, 'offset' as const),
    names: fc.constantFrom(['page', 'per_page'], ['page', 'page_size'], ['offset', 'limit'], ['p', 'n']),
    first: fc.constantFrom(0 as const, 1 as const),
    defaultSize: fc.integer({ min: 1, max: 30 }),
  })
  .map(({ style, names, first, defaultSize }) => ({
    style,
    position: names[0] as string,
    size: names[1] as string,
    first,
    defaultSize,
  }));

describe('learnPaging', () => {
  it('finds a paging that answers every recorded page as the sandbox did, whatever the sandbox pages by', () => {
    fc.assert(
      fc.property(
        pagings,
        fc.integer({ min: 0, max: 60 }),
        fc.array(
          fc.record({
            position: fc.integer({ min: 0, max: 9 }),
            size: fc.option(fc.integer({ min: 1, max: 9 })),
          }),
          { maxLength: 4 },
        ),
        (paging, total, asked) => {
          const queries = [
            new URLSearchParams(),
            ...asked.map(({ position, size }) => {
              // Probes in other names too, as the teaching session sends them: a sandbox ignores those.
              const query = new URLSearchParams({ [paging.position]: String(position), other_size: '1' });
              if (size !== null) query.set(paging.size, String(size));
              return query;
            }),
          ];
          const samples = queries.map((query, index) => page(paging, total, query, index + 1));
          const learned = learnPaging(samples);
          expect(learned).toBeDefined();
          for (const sample of samples)
            expect(page(learned as Paging, total, sample.query, sample.entry)).toEqual(sample);
        },
      ),
      { seed: SEED, numRuns: 300 },
    );
  });

  it("is pacu's own paging when pacu's explains every page (the spec then checks page and per_page)", () => {
    const samples = [
      page(PACU_PAGING, 45, new URLSearchParams(), 1),
      page(PACU_PAGING, 45, new URLSearchParams('page=2'), 2),
    ];
    expect(learnPaging(samples)).toBe(PACU_PAGING);
  });
});

describe('learnPagingLimits', () => {
  const tried = (
    position: number | undefined,
    size: number | undefined,
    taken: boolean,
    entry = 1,
  ): PageTry => ({
    entry,
    position,
    size,
    taken,
  });

  it('learns a limit where two refusals lie beyond every value taken', () => {
    expect(
      learnPagingLimits([
        tried(undefined, undefined, true),
        tried(2, 1, true),
        tried(0, undefined, false),
        tried(-1, undefined, false),
        tried(undefined, 50, true),
        tried(undefined, 51, false),
        tried(undefined, 100, false),
      ]),
    ).toEqual({ minPosition: 1, maxSize: 50 });
  });

  it('learns none from one refusal, nor from a refusal among values taken', () => {
    expect(learnPagingLimits([tried(1, 10, true), tried(0, undefined, false)])).toBeUndefined();
    expect(
      learnPagingLimits([
        tried(1, 10, true),
        tried(1, 100, true),
        tried(1, 50, false),
        tried(1, 1000, false),
      ]),
    ).toBeUndefined();
  });
});

const FACTS: FieldFacts = {
  documented: [
    'amount',
    'description',
    'wallet_id',
    'transaction_id',
    'transaction_date',
    'transaction_status',
  ],
  echoed: ['amount', 'description', 'wallet_id'],
  enumerated: new Map([['transaction_status', ['processing', 'successful', 'failed']]]),
  elsewhere: [],
};

const sample = (
  entry: number,
  request: Record<string, unknown>,
  data: Record<string, unknown>,
): RecordSample => ({
  entry,
  request,
  data,
});

describe('learnRecordPlan', () => {
  const samples = [
    sample(
      1,
      { account_id: 'acct_1', amount: 40, description: 'Refund', wallet_id: 'Grace@Example.com' },
      {
        transaction_id: 'wpo_a1b2c3d4e5f6',
        amount: 40,
        description: 'Refund',
        wallet_id: 'grace@example.com',
        account_id: 'acct_1',
        currency: 'USD',
        created_at: '2026-01-01T00:00:00.000Z',
        fee_id: 'fee_9f8e7d6c5b4a',
        transaction_status: 'PENDING',
      },
    ),
    sample(
      2,
      { account_id: 'acct_2', amount: 10, wallet_id: 'ada@example.com' },
      {
        transaction_id: 'wpo_0a1b2c3d4e5f',
        amount: 10,
        wallet_id: 'ada@example.com',
        account_id: 'acct_2',
        currency: 'USD',
        created_at: '2026-01-02T00:00:00.000Z',
        fee_id: 'fee_1a2b3c4d5e6f',
        transaction_status: 'PENDING',
      },
    ),
    sample(
      3,
      { account_id: 'acct_3', amount: 12, wallet_id: 'Lin@Example.com' },
      {
        transaction_id: 'wpo_1a2b3c4d5e6f',
        amount: 12,
        wallet_id: 'lin@example.com',
        account_id: 'acct_3',
        currency: 'USD',
        created_at: '2026-01-03T00:00:00.000Z',
        fee_id: 'fee_2b3c4d5e6f7a',
        transaction_status: 'PENDING',
      },
    ),
  ];

  it('tells echoed, constant, timestamp and generated fields, other-cased echoes, other spellings and left-out fields', () => {
    const { plan, choices } = learnRecordPlan(samples, FACTS);
    expect(Object.fromEntries(choices.map((choice) => [choice.field, choice.value]))).toEqual({
      wallet_id: "echoes, lower-cased, the request's wallet_id",
      account_id: "echoes the request's account_id",
      currency: 'always "USD"',
      created_at: 'the time it was made',
      fee_id: 'a fresh id',
      transaction_status: 'always "PENDING"',
      description: 'left out when the request leaves it out',
    });
    const made = applyPlan(
      plan as NonNullable<typeof plan>,
      {
        amount: 5,
        description: '',
        wallet_id: 'Lin@Example.com',
        transaction_id: 'x',
        transaction_date: 't',
        transaction_status: 'processing',
      },
      { account_id: 'acct_9', amount: 5, wallet_id: 'Lin@Example.com' },
      { stamp: () => '2026-02-02T00:00:00.000Z' },
    );
    expect(made).toMatchObject({
      wallet_id: 'lin@example.com',
      account_id: 'acct_9',
      currency: 'USD',
      created_at: '2026-02-02T00:00:00.000Z',
      transaction_status: 'PENDING',
    });
    expect(String((made as Record<string, unknown>).fee_id)).toMatch(/^fee_[0-9a-f]{12}$/);
    expect(made).not.toHaveProperty('description');
    // In the recorded order.
    expect(Object.keys(made).slice(0, 4)).toEqual(['transaction_id', 'amount', 'wallet_id', 'account_id']);
  });

  it("learns nothing of a record kind the recording never answered: pacu's shape holds", () => {
    expect(learnRecordPlan([], FACTS)).toEqual({ plan: undefined, choices: [], free: [] });
  });

  it('makes no rule of one sample: each field it alone shows stays free, and says why', () => {
    const { plan, choices, free } = learnRecordPlan(samples.slice(1, 2), FACTS);
    expect(choices).toEqual([]);
    expect(plan?.fields).toEqual([]);
    expect(plan?.omitWhenAbsent).toEqual([]);
    expect(Object.fromEntries(free.map((field) => [field.field, field.why]))).toMatchObject({
      currency: 'seen in 1 answer: too few',
      fee_id: 'seen in 1 answer: too few',
      transaction_status: '"PENDING" in 1 answer: too few',
      description: 'left out when the request left it out, in 1 answer: too few',
    });
  });

  it('keeps a field whose samples disagree and follow no request field free', () => {
    const [first, second] = samples as [RecordSample, RecordSample];
    const { choices, free } = learnRecordPlan(
      [
        { ...first, data: { ...first.data, fee: 0.25 } },
        { ...second, data: { ...second.data, fee: 15 } },
      ],
      FACTS,
    );
    expect(choices.map((choice) => choice.field)).not.toContain('fee');
    expect(free.find((field) => field.field === 'fee')?.why).toMatch(/^values differ \(0\.25, 15\)/);
  });
});
