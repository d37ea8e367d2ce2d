// Hostile input never gets a 5xx, never loses an answer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMock, startMock } from '../mock/index.ts';
import { call, getJson, postJson, tokenFor, transferBody } from './mock-helpers.ts';

let mock: RunningMock;
let token: string;
const basic = (credentials: string): string => `Basic ${Buffer.from(credentials).toString('base64')}`;

beforeAll(async () => {
  mock = await startMock({ log: () => {} });
  token = await tokenFor(mock);
});
afterAll(() => mock.close());

describe('finding 4: bad percent-encoding', () => {
  it('answers Basic credentials that are not valid percent-encoding with 401', async () => {
    const reply = await call(`${mock.url}/auth/token`, {
      method: 'POST',
      headers: {
        authorization: basic('pacu-demo:pacu-demo-secret%'),
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'grant_type=client_credentials',
    });
    expect(reply.status).toBe(401);
    expect(reply.body.success).toBe(false);
  });

  it('answers a token form body with a bare % with 400', async () => {
    const reply = await call(`${mock.url}/auth/token`, {
      method: 'POST',
      headers: {
        authorization: basic('pacu-demo:pacu-demo-secret'),
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'grant_type=client_credentials&%',
    });
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual({ success: false, message: expect.stringContaining('percent') });
  });
});

// Oversize uploads run against the mock and the proxy in test/oversize-uploads.test.ts; pipelining,
// header lines and CONNECT are cases of the front door's list, test/front-door.case.ts.

describe('finding 9: paging parameters', () => {
  it.each(['per_page=', 'page=', 'page=1e999', 'page=0', 'per_page=Infinity', 'page=1.5', 'page=0x10'])(
    'answers /users?%s with 400',
    async (query) => {
      const reply = await getJson(`${mock.url}/users?${query}`, token);
      expect(reply.status).toBe(400);
      expect(reply.body.success).toBe(false);
    },
  );

  it('still pages with valid parameters', async () => {
    const reply = await getJson(`${mock.url}/users?page=2&per_page=10`, token);
    expect(reply.body.data).toMatchObject({ page: 2, total_pages: 5 });
  });
});

describe('finding 10: trailing slash', () => {
  it('answers /v3/users/ with 404 like any path that is not an operation', async () => {
    expect((await getJson(`${mock.url}/users/`, token)).status).toBe(404);
    expect((await getJson(`${mock.url}/cards/virtual/${mock.seeded.cardId}/`, token)).status).toBe(404);
  });
});

describe('finding 11: string lengths', () => {
  it.each([
    ['description', 256],
    ['recipient_name', 141],
    ['recipient_email', 255],
    ['account_id', 65],
  ])('refuses a transfer whose %s is longer than decided (%i characters)', async (field, length) => {
    const value = field === 'recipient_email' ? `${'a'.repeat(length - 12)}@example.com` : 'x'.repeat(length);
    const reply = await postJson(
      `${mock.url}/payments/usd/direct`,
      token,
      transferBody(mock.seeded.merchantAccountId, { [field]: value }),
    );
    expect(reply.status).toBe(400);
    expect(reply.body.message).toMatch(new RegExp(`${field} must NOT have more than`));
  });

  it('refuses a 100 KB description on a wallet payout', async () => {
    const reply = await postJson(`${mock.url}/payments/wallet`, token, {
      account_id: mock.seeded.merchantAccountId,
      amount: 5,
      wallet_id: 'payee@example.com',
      recipient_name: 'Payee',
      description: 'x'.repeat(100_000),
    });
    expect(reply.status).toBe(400);
  });
});
