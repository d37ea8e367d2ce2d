import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMock, type MockApp } from './index.ts';

let app: MockApp;
const basic = (id: string, secret: string): string =>
  `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

async function token(scope?: string, client = { id: 'pacu-demo', secret: 'pacu-demo-secret' }) {
  const form = new URLSearchParams({
    grant_type: 'client_credentials',
    ...(scope === undefined ? {} : { scope }),
  });
  const response = await app.request('/v3/auth/token', {
    method: 'POST',
    headers: {
      authorization: basic(client.id, client.secret),
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: form.toString(),
  });
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
  return { status: response.status, body: (await response.json()) as any };
}

async function send(
  method: string,
  path: string,
  bearer: string | undefined,
  body?: unknown,
  type = 'application/json',
) {
  const response = await app.request(path, {
    method,
    headers: {
      ...(bearer ? { authorization: `Bearer ${bearer}` } : {}),
      ...(body === undefined ? {} : { 'content-type': type }),
    },
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
  return { status: response.status, body: (await response.json()) as any };
}

const postTransfer = (bearer: string, overrides: Record<string, unknown>) =>
  send('POST', '/v3/payments/usd/direct', bearer, transfer(overrides));

const transfer = (overrides: Record<string, unknown> = {}) => ({
  account_id: app.seeded.merchantAccountId,
  account_number: '000123456789',
  account_type: 'SAVINGS',
  amount: 10,
  routing_number: '021000021',
  transfer_type: 'ACH',
  reference: 'R-1',
  recipient_email: 'jane@example.com',
  recipient_name: 'Jane',
  ...overrides,
});

beforeAll(async () => {
  app = await createMock({ clock: 'manual', selfCheck: true, tokenLifetimeSeconds: 60 });
  app.control.addClient({ clientId: 'card-only', clientSecret: 's3cret', scopes: ['card'] });
});
afterAll(() => app.close());

describe('token endpoint', () => {
  it('grants all of the client scopes when scope is left out', async () => {
    const reply = await token();
    expect(reply).toMatchObject({
      status: 200,
      body: { data: { scope: 'card,us_account', expires_in_seconds: 60 } },
    });
  });

  it.each([
    ['wrong secret', { id: 'pacu-demo', secret: 'nope' }, 'card', 401],
    ['unknown client', { id: 'ghost', secret: 'x' }, 'card', 401],
    ['unknown scope', { id: 'pacu-demo', secret: 'pacu-demo-secret' }, 'card,admin', 400],
    ['scope the client lacks', { id: 'card-only', secret: 's3cret' }, 'us_account', 400],
  ])('refuses %s', async (_name, client, scope, status) => {
    expect((await token(scope, client)).status).toBe(status);
  });

  it('refuses a grant_type other than client_credentials with 400 naming it', async () => {
    const response = await app.request('/v3/auth/token', {
      method: 'POST',
      headers: {
        authorization: basic('pacu-demo', 'pacu-demo-secret'),
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'grant_type=password',
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { message: string }).message).toContain('grant_type');
  });
});

describe('bearer auth', () => {
  it('answers 401 for a missing, malformed or unknown token and 403 for a missing scope', async () => {
    expect((await send('GET', '/v3/users', undefined)).status).toBe(401);
    expect((await send('GET', '/v3/users', 'a b')).status).toBe(401);
    expect((await send('GET', '/v3/users', 'pacu_at_unknown')).status).toBe(401);
    const cardOnly = (await token('card')).body.data.access_token;
    expect((await send('GET', '/v3/users', cardOnly)).status).toBe(200);
    const refused = await send('POST', '/v3/payments/usd/direct', cardOnly, transfer());
    expect(refused).toMatchObject({
      status: 403,
      body: { success: false, message: 'token lacks scope us_account' },
    });
  });

  it('refuses a token once the clock passes its expiry', async () => {
    const fresh = (await token()).body.data.access_token;
    expect((await send('GET', '/v3/users', fresh)).status).toBe(200);
    app.control.advanceClock(61);
    expect((await send('GET', '/v3/users', fresh)).body.message).toContain('expired');
  });
});

describe('usdTransfer', () => {
  it('names the offending field, and enforces the decisions Prism cannot see', async () => {
    const bearer = (await token()).body.data.access_token;
    const cases: Array<[Record<string, unknown>, string]> = [
      [transfer({ amount: 'ten' }), 'amount'],
      [transfer({ amount: 10.005 }), 'at most two decimal places'],
      [transfer({ routing_number: '021000022' }), 'ABA checksum'],
      [transfer({ account_id: 'acct_nope' }), 'acct_nope'],
      [transfer({ account_number: '12' }), 'account_number'],
    ];
    for (const [body, needle] of cases) {
      const reply = await send('POST', '/v3/payments/usd/direct', bearer, {
        ...body,
        reference: `bad-${needle}`,
      });
      expect(reply.status, needle).toBe(400);
      expect(reply.body.message).toContain(needle);
    }
  });

  it('returns the same record for a repeated reference and 409 for a changed body', async () => {
    const bearer = (await token()).body.data.access_token;
    const first = await postTransfer(bearer, { reference: 'IDEM-1' });
    const again = await postTransfer(bearer, { reference: 'IDEM-1' });
    expect(again.body.data.transaction_id).toBe(first.body.data.transaction_id);
    const changed = await postTransfer(bearer, { reference: 'IDEM-1', amount: 11 });
    expect(changed.status).toBe(409);
  });

  it('scopes references per client', async () => {
    app.control.addClient({ clientId: 'ci-job-2', clientSecret: 'x', scopes: ['us_account'] });
    const mine = (await token()).body.data.access_token;
    const theirs = (await token('us_account', { id: 'ci-job-2', secret: 'x' })).body.data.access_token;
    const a = await postTransfer(mine, { reference: 'SHARED' });
    const b = await postTransfer(theirs, { reference: 'SHARED', amount: 99 });
    expect(b.status).toBe(200);
    expect(b.body.data.transaction_id).not.toBe(a.body.data.transaction_id);
  });

  it('refuses an account created with hold_balance false, pointing at the merchant account', async () => {
    const bearer = (await token()).body.data.access_token;
    const account = await send('POST', '/v3/accounts', bearer, {
      hold_balance: false,
      user_id: app.seeded.userId,
    });
    const reply = await postTransfer(bearer, { account_id: account.body.data.account_id, reference: 'HB' });
    expect(reply.status).toBe(400);
    expect(reply.body.message).toContain(app.seeded.merchantAccountId);
    expect(
      (await send('POST', '/v3/accounts', bearer, { hold_balance: true, user_id: 'usr_nope' })).status,
    ).toBe(400);
  });
});

describe('request bodies', () => {
  it.each([
    ['a wrong content type', 'account_id=x', 'text/plain', 'Content-Type'],
    ['malformed JSON', '{"account_id":', 'application/json', 'malformed JSON'],
    ['an empty body', '', 'application/json', 'empty'],
    ['JSON nested 40 deep', `${'['.repeat(40)}${']'.repeat(40)}`, 'application/json', 'deeper than 32'],
  ])('answers %s with 400 and the error envelope', async (_name, body, type, needle) => {
    const bearer = (await token()).body.data.access_token;
    const reply = await send('POST', '/v3/accounts', bearer, body, type);
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual({ success: false, message: expect.stringContaining(needle) });
  });

  it('answers 404 off the interface and 405 for another method', async () => {
    expect((await send('GET', '/v3/nothing', undefined)).status).toBe(404);
    expect((await send('GET', '/v2/users', undefined)).status).toBe(404);
    const wrong = await app.request('/v3/payments/usd/direct');
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('POST');
  });
});
