import { afterEach, describe, expect, it } from 'vitest';
import { type Har, harEntry } from '../../http/index.ts';
import { createMock, type MockApp } from '../index.ts';

const BASE = 'https://sandbox.example.com/sandbox/v3';
const CARD = 'card-never-read';
const TRANSACTION = 'ctx-recorded-1';
const USER = 'user-never-listed';
const MERCHANT = 'acct-merchant-recorded';

function exchange(method: string, path: string, status: number, data: unknown, request?: unknown) {
  return harEntry({
    startedAt: new Date(Date.UTC(2026, 0, 1)),
    durationMs: 5,
    method,
    url: `${BASE}${path}`,
    requestHeaders: [
      { name: 'authorization', value: 'Bearer $PACU_TOKEN' },
      ...(request === undefined ? [] : [{ name: 'content-type', value: 'application/json' }]),
    ],
    ...(request === undefined ? {} : { requestBody: JSON.stringify(request) }),
    status,
    statusText: '',
    responseHeaders: [{ name: 'content-type', value: 'application/json' }],
    responseBody:
      typeof data === 'string'
        ? data
        : JSON.stringify(status === 200 ? { success: true, message: 'ok', data } : data),
  });
}

const transfer = (reference: string, transactionId: string) => ({
  account_number: '000123456789',
  account_type: 'CHECKING',
  amount: 10,
  description: '',
  reference,
  recipient_email: 'ada@example.com',
  recipient_name: 'Ada',
  routing_number: '021000021',
  transaction_date: '2026-01-01T00:00:00Z',
  transaction_id: transactionId,
  transaction_status: 'failed',
  transfer_type: 'WIRE',
});

const transferRequest = (reference: string) => {
  const {
    transaction_date: _d,
    transaction_id: _i,
    transaction_status: _s,
    ...fields
  } = transfer(reference, '');
  return { ...fields, account_id: MERCHANT };
};

function har(...entries: ReturnType<typeof harEntry>[]): Har {
  return { log: { version: '1.2', creator: { name: 'test', version: '1' }, entries } };
}

const RECORDING = har(
  exchange('GET', `/cards/${CARD}/transactions/${TRANSACTION}`, 200, {
    transaction_id: TRANSACTION,
    card_id: CARD,
    amount: 1.5,
    currency: 'USD',
    description: 'Coffee',
    merchant_name: 'Cafe',
    transaction_date: '2026-01-01T00:00:00Z',
    transaction_status: 'processing',
    transaction_type: 'PURCHASE',
  }),
  exchange('GET', `/p2p/status/${USER}`, 200, { p2p_id: 'grace@example.com', status: 'VALIDATED' }),
  exchange('POST', '/payments/usd/direct', 200, transfer('ref-1', 'T-first'), transferRequest('ref-1')),
  // The sandbox broke idempotency here: the first answer is the record.
  exchange('POST', '/payments/usd/direct', 200, transfer('ref-1', 'T-second'), transferRequest('ref-1')),
  exchange('POST', '/payments/usd/direct', 400, { success: false, message: 'Invalid request' }, {}),
  exchange('GET', '/not/an/operation', 200, { anything: true }),
);

let app: MockApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

async function bearer(mock: MockApp): Promise<string> {
  const response = await mock.request(`${mock.basePath}/auth/token`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from('pacu-demo:pacu-demo-secret').toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: 'grant_type=client_credentials&scope=card,us_account',
  });
  return ((await response.json()) as { data: { access_token: string } }).data.access_token;
}

async function read(mock: MockApp, path: string, body?: unknown) {
  const response = await mock.request(`${mock.basePath}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: {
      authorization: `Bearer ${await bearer(mock)}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as { data: Record<string, unknown> } };
}

describe('a mock from a recording', () => {
  it('gives a recorded card transaction the card it belongs to, and seeds that pair', async () => {
    app = await createMock({ fromRecording: RECORDING, clock: 'manual', log: () => {} });
    expect(app.seeded).toMatchObject({
      cardId: CARD,
      cardTransactionId: TRANSACTION,
      merchantAccountId: MERCHANT,
    });
    expect((await read(app, `/cards/virtual/${CARD}`)).body.data.card_id).toBe(CARD);
    expect((await read(app, `/cards/${CARD}/transactions/${TRANSACTION}`)).body.data.description).toBe(
      'Coffee',
    );
  });

  it('knows a user whose p2p status was read, with the recorded p2p id', async () => {
    app = await createMock({ fromRecording: RECORDING, clock: 'manual', log: () => {} });
    expect((await read(app, `/p2p/status/${USER}`)).body.data).toEqual({
      p2p_id: 'grace@example.com',
      status: 'VALIDATED',
    });
  });

  it("keeps the first answer to a reference, with the sandbox's status and no lifecycle", async () => {
    app = await createMock({ fromRecording: RECORDING, clock: 'manual', log: () => {} });
    const replayed = await read(app, '/payments/usd/direct', transferRequest('ref-1'));
    expect(replayed).toMatchObject({ status: 200, body: { data: transfer('ref-1', 'T-first') } });
    await app.control.advanceClock(86_400);
    expect(
      (await read(app, '/payments/usd/direct', transferRequest('ref-1'))).body.data.transaction_status,
    ).toBe('failed');
  });

  it('serves under the base path the recording showed', async () => {
    app = await createMock({ fromRecording: RECORDING, clock: 'manual', log: () => {} });
    expect(app.basePath).toBe('/sandbox/v3');
    expect(app.learned?.choices.find((choice) => choice.choice === 'basePath')).toMatchObject({
      value: '/sandbox/v3',
      from: 'recording',
    });
  });

  it('faults and the journal work under that base path', async () => {
    app = await createMock({ fromRecording: RECORDING, clock: 'manual', log: () => {} });
    app.control.addFault({ operation: 'listUsers', kind: 'status', status: 503, times: 1 });
    expect((await read(app, '/users')).status).toBe(503);
    await app.request(`${app.basePath}/user`, { headers: { authorization: `Bearer ${await bearer(app)}` } });
    expect((await app.control.unmatchedRequests()).at(-1)?.hint).toBe('did you mean GET /sandbox/v3/users?');
  });

  it('a 200 answer that is not JSON contradicts the description: reported, not served', async () => {
    const broken = har(exchange('GET', `/payments/card/p-1`, 200, 'not json'));
    app = await createMock({ fromRecording: broken, log: () => {} });
    expect(app.learned?.contradictions).toEqual([
      {
        entries: [1],
        what: 'GET /payments/card/p-1 was answered 200 with a body that is not JSON: its records are not served',
      },
    ]);
    expect((await read(app, '/payments/card/p-1')).status).toBe(400);
  });

  it('writes amounts and ids as the sandbox does: 125.50, ULIDs', async () => {
    const text = (amount: string, id: string) =>
      `{"success":true,"message":"ok","data":${JSON.stringify(transfer('ref-x', id)).replace('"amount":10', `"amount":${amount}`)}}`;
    const written = har(
      {
        ...exchange('POST', '/payments/usd/direct', 200, {}, transferRequest('ref-a')),
        response: {
          ...exchange('POST', '/x', 200, {}).response,
          content: {
            size: 0,
            mimeType: 'application/json',
            text: text('125.50', '01HZY3NDEKTSV4RRFFQ69G5FAV').replace('ref-x', 'ref-a'),
          },
        },
      },
      {
        ...exchange('POST', '/payments/usd/direct', 200, {}, transferRequest('ref-b')),
        response: {
          ...exchange('POST', '/x', 200, {}).response,
          content: {
            size: 0,
            mimeType: 'application/json',
            text: text('40.00', '01HZY3NDEKTSV4RRFFQ69G5FAW').replace('ref-x', 'ref-b'),
          },
        },
      },
    );
    app = await createMock({ fromRecording: written, clock: 'manual', log: () => {} });
    const response = await app.request(`${app.basePath}/payments/usd/direct`, {
      method: 'POST',
      headers: { authorization: `Bearer ${await bearer(app)}`, 'content-type': 'application/json' },
      body: JSON.stringify({ ...transferRequest('ref-new'), amount: 7 }),
    });
    const body = await response.text();
    expect(body).toContain('"amount":7.00');
    expect(JSON.parse(body).data.transaction_id).toMatch(/^[0-7][0-9A-HJKMNP-TV-Z]{25}$/);
  });
});
