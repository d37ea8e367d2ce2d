// A step's webhook body is the record as it stood at that step, though it is written out only when
// read: a later step (or a later read) changes nothing in an earlier event's body.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { appToken } from '../../test/mock-helpers.ts';
import { createMock, type MockApp } from '../index.ts';

let app: MockApp;

beforeAll(async () => {
  app = await createMock({
    clock: 'manual',
    scenario: {
      rules: [
        {
          name: 'settles, then is reversed',
          match: {},
          steps: [
            { after: 1, status: 'successful' },
            { after: 2, status: 'failed' },
          ],
        },
      ],
    },
  });
});
afterAll(() => app.close());

it('writes each step event with the status of its step and the record otherwise as made', async () => {
  const bearer = await appToken(app, 'us_account');
  const made = await app.request('/v3/payments/usd/direct', {
    method: 'POST',
    headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      account_id: app.seeded.merchantAccountId,
      account_number: '000123456789',
      account_type: 'SAVINGS',
      amount: 10,
      routing_number: '021000021',
      transfer_type: 'WIRE',
      reference: 'STEP-1',
      recipient_email: 'jane@example.com',
      recipient_name: 'Jane',
    }),
  });
  const record = ((await made.json()) as { data: Record<string, unknown> }).data;
  // Both steps before anything reads the first event's body.
  await app.control.advanceClock(1);
  await app.control.advanceClock(1);
  const events = await app.control.events();
  expect(events.map((event) => event.type)).toEqual(['usd_transfer.successful', 'usd_transfer.failed']);
  expect(events.map((event) => JSON.parse(event.body))).toEqual([
    {
      type: 'usd_transfer.successful',
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      data: { ...record, transaction_status: 'successful' },
    },
    {
      type: 'usd_transfer.failed',
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      data: { ...record, transaction_status: 'failed' },
    },
  ]);
});
