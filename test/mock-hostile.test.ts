import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMock, startMock } from '../mock/index.ts';
import { call, getJson, postJson, tokenFor, transferBody } from './mock-helpers.ts';
import { raw } from './raw-http.ts';

let mock: RunningMock;
let token: string;
let firstTransferId: string;

const port = (): number => Number(new URL(mock.origin).port);

beforeAll(async () => {
  mock = await startMock({ headersTimeoutMs: 400, requestTimeoutMs: 800, log: () => {} });
  token = await tokenFor(mock);
  firstTransferId = (
    await postJson(`${mock.url}/payments/usd/direct`, token, transferBody(mock.seeded.merchantAccountId))
  ).body.data.transaction_id;
});
afterAll(() => mock.close());

describe('hostile input', () => {
  it('answers a body over 1 MiB with 413 and the envelope, announced or streamed', async () => {
    const big = JSON.stringify({ padding: 'x'.repeat(1_100_000) });
    const announced = await postJson(`${mock.url}/payments/usd/direct`, token, JSON.parse(big));
    expect(announced.status).toBe(413);
    expect(announced.body).toEqual({ success: false, message: 'request body is over 1048576 bytes' });
    const streamed = await raw(port(), [
      `POST /v3/accounts HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`,
      `${(1_200_000).toString(16)}\r\n${'a'.repeat(1_200_000)}\r\n0\r\n\r\n`,
    ]);
    expect(streamed.text).toMatch(/^HTTP\/1\.1 413/);
  });

  it('refuses a header flood with 431 and closes the connection', async () => {
    const headers = Array.from(
      { length: 2000 },
      (_, index) => `X-Flood-${index}: ${'y'.repeat(20)}\r\n`,
    ).join('');
    const reply = await raw(port(), [`GET /v3/users HTTP/1.1\r\nHost: x\r\n${headers}\r\n`]);
    expect(reply.text).toMatch(/^HTTP\/1\.1 431/);
  });

  it.each([
    ['malformed JSON', 'application/json', '{"hold_balance": tru'],
    ['deep JSON', 'application/json', `${'{"a":'.repeat(100)}1${'}'.repeat(100)}`],
    ['a wrong content type', 'text/xml', '<account/>'],
    ['an empty body', 'application/json', ''],
  ])('answers %s with 400 over HTTP', async (_name, type, body) => {
    const reply = await call(`${mock.url}/accounts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': type },
      body,
    });
    expect(reply.status).toBe(400);
    expect(reply.body.success).toBe(false);
  });

  it('answers unknown paths with 404, other methods with 405, and loses no state', async () => {
    expect((await call(`${mock.origin}/anything`)).status).toBe(404);
    expect((await call(`${mock.url}/users`, { method: 'PUT' })).status).toBe(405);
    expect(
      (await call(`${mock.url}/cards/virtual/%E0%A4%A`, { headers: { authorization: `Bearer ${token}` } }))
        .status,
    ).toBe(400);
    const dump = (await call(`${mock.origin}/__pacu/state`)).body;
    expect(
      dump.transfers.map((t: { record: { transaction_id: string } }) => t.record.transaction_id),
    ).toContain(firstTransferId);
    expect((await getJson(`${mock.url}/users`, token)).status).toBe(200);
  });
});

describe('concurrency', () => {
  it('turns 50 concurrent identical transfers into exactly one transaction', async () => {
    const body = transferBody(mock.seeded.merchantAccountId, { reference: 'CONCURRENT-50' });
    const replies = await Promise.all(
      Array.from({ length: 50 }, () => postJson(`${mock.url}/payments/usd/direct`, token, body)),
    );
    expect(replies.every((reply) => reply.status === 200)).toBe(true);
    expect(new Set(replies.map((reply) => reply.body.data.transaction_id)).size).toBe(1);
    const dump = (await call(`${mock.origin}/__pacu/state`)).body;
    expect(
      dump.transfers.filter((t: { record: { reference: string } }) => t.record.reference === 'CONCURRENT-50'),
    ).toHaveLength(1);
  });
});
