// A reused reference is answered as the first transfer exactly when its body is the same JSON,
// whether the first body was kept as the record's echo or as a hash (decision 203).
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appToken, transferBody } from '../../../test/mock-helpers.ts';
import { createMock, type MockApp } from '../../index.ts';
import { ECHOED, fingerprint } from './payments.ts';

let app: MockApp;
let bearer: string;

beforeAll(async () => {
  app = await createMock({ clock: 'manual' });
  bearer = await appToken(app, 'us_account');
});
afterAll(() => app.close());

async function post(body: Record<string, unknown>): Promise<{ status: number; id?: string }> {
  const response = await app.request('/v3/payments/usd/direct', {
    method: 'POST',
    headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const reply = (await response.json()) as { data?: { transaction_id: string } };
  return { status: response.status, id: reply.data?.transaction_id };
}

/** The same JSON body: the same fields with the same values, in any order. */
const canonical = (body: Record<string, unknown>): string =>
  JSON.stringify(
    Object.keys(body)
      .sort()
      .map((key) => [key, body[key]]),
  );

/** Legal values of each field, and of one the description does not name. */
const VALUES: Record<string, unknown[]> = {
  account_number: ['000123456789', '987654321'],
  account_type: ['CHECKING', 'SAVINGS', 'BUSINESS'],
  amount: [10, 10.5, 250],
  routing_number: ['021000021', '011000015'],
  transfer_type: ['ACH', 'WIRE'],
  recipient_email: ['jane@example.com', 'joe@example.com'],
  recipient_name: ['Jane', 'Joe'],
  description: ['rent', ''],
  note: ['x', 'y'],
};
const base = fc.record(
  Object.fromEntries(Object.entries(VALUES).map(([field, values]) => [field, fc.constantFrom(...values)])),
  { requiredKeys: [] },
);
/** One field set to one of its values (perhaps the one it had). */
const change = fc
  .constantFrom(...Object.keys(VALUES))
  .chain((field) => fc.constantFrom(...(VALUES[field] as unknown[])).map((value) => ({ [field]: value })));

/** A valid first body: the required fields always, the optional and unknown ones drawn. */
const firstBody = base.map(
  (drawn): Record<string, unknown> => ({
    account_number: '000123456789',
    account_type: 'SAVINGS',
    amount: 10,
    routing_number: '021000021',
    transfer_type: 'ACH',
    recipient_email: 'jane@example.com',
    recipient_name: 'Jane',
    ...drawn,
  }),
);

describe('a reused reference', () => {
  it('replays the first transfer exactly when the second body is the same JSON, else 409', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        firstBody,
        fc.oneof(change, base),
        fc.array(fc.constantFrom('description', 'note'), { maxLength: 2 }),
        fc.boolean(),
        async (first, changes, dropped, reversed) => {
          const reference = `REPLAY-${run++}`;
          const one = { ...first, account_id: app.seeded.merchantAccountId, reference };
          const changed: Record<string, unknown> = { ...one, ...changes };
          for (const field of dropped) delete changed[field];
          const entries = Object.entries(changed);
          const two = Object.fromEntries(reversed ? entries.reverse() : entries);
          const made = await post(one);
          expect(made.status).toBe(200);
          const again = await post(two);
          if (canonical(one) === canonical(two)) expect(again).toEqual(made);
          else expect(again.status).toBe(409);
        },
      ),
      { numRuns: 300, seed: 203 },
    );
  });

  it('replays a transfer an earlier pacu stored with the hash of its echoed body', async () => {
    // The spec's example with its description: the ten fields a record echoes.
    const body = transferBody(app.seeded.merchantAccountId, { reference: 'REPLAY-EARLIER' });
    const made = await post(body);
    const state = (await app.control.dumpState()) as unknown as {
      transfers: Array<{ record: { reference: string }; fingerprint: string }>;
    };
    const kept = state.transfers.find((transfer) => transfer.record.reference === body.reference);
    expect(kept?.fingerprint).toBe(ECHOED);
    // As a state file written before decision 203 holds it: the hash of the body itself.
    if (kept) kept.fingerprint = fingerprint(body);
    await app.control.loadState(state);
    expect(await post({ ...body })).toEqual(made);
    expect((await post({ ...body, amount: 11 })).status).toBe(409);
  });
});
