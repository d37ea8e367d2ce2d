// Issue 11, findings 4-11: hostile input never gets a 5xx, never loses an answer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMock, startMock } from '../mock/index.ts';
import { call, getJson, postJson, tokenFor, transferBody } from './mock-helpers.ts';
import { exitOf, startCli } from './mock-process.ts';
import { raw, statusLines } from './raw-http.ts';

let mock: RunningMock;
let token: string;
const port = (): number => Number(new URL(mock.origin).port);
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

describe('finding 5: oversize uploads', () => {
  // The mock in its own process: in one process the client never races the server's close.
  it('answers 2 MiB and 12 MiB uploads with the 413 envelope every time, never a reset', async () => {
    const cli = await startCli([]);
    try {
      const url = cli.info.url as string;
      const bearer = await tokenFor({
        url,
        demoClient: { clientId: 'pacu-demo', clientSecret: 'pacu-demo-secret', scopes: [] },
      });
      const outcomes: string[] = [];
      for (const mib of [2, 12]) {
        const body = JSON.stringify({ padding: 'x'.repeat(mib * 1024 * 1024) });
        for (let round = 0; round < 8; round++) {
          try {
            const response = await fetch(`${url}/payments/usd/direct`, {
              method: 'POST',
              headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
              body,
            });
            outcomes.push(`${response.status} ${await response.text()}`);
          } catch (error) {
            outcomes.push(`reset: ${String((error as Error).cause ?? error)}`);
          }
        }
      }
      expect(outcomes).toEqual(
        Array(16).fill('413 {"success":false,"message":"request body is over 1048576 bytes"}'),
      );
    } finally {
      const exited = exitOf(cli.child);
      cli.child.kill('SIGTERM');
      await exited;
    }
  }, 30_000);
});

describe('finding 6: pipelining', () => {
  it('sends the answer of a valid request before the 400 of a malformed one after it', async () => {
    const body = JSON.stringify(transferBody(mock.seeded.merchantAccountId, { reference: 'PIPELINED-1' }));
    const valid = `POST /v3/payments/usd/direct HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
    const reply = await raw(port(), [`${valid}GARBAGE / HTTP/1.1\r\nHost x\r\n\r\n`]);
    expect(statusLines(reply.text)).toEqual(['HTTP/1.1 200', 'HTTP/1.1 400']);
    expect(reply.text).toContain('"transaction_id"');
    expect(reply.text).toContain('"success":false');
  });

  it('answers pipelined requests in order', async () => {
    const get = (path: string): string =>
      `GET /v3${path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\n\r\n`;
    const reply = await raw(port(), [
      `${get('/users')}${get('/nothing')}${get(`/cards/virtual/${mock.seeded.cardId}`)}${get('/users')}`.replace(
        /\r\n\r\n$/,
        '\r\nConnection: close\r\n\r\n',
      ),
    ]);
    expect(statusLines(reply.text)).toEqual(['HTTP/1.1 200', 'HTTP/1.1 404', 'HTTP/1.1 200', 'HTTP/1.1 200']);
  });
});

describe('finding 7: header lines', () => {
  it('refuses more than 200 header lines with 431 instead of dropping the token after them', async () => {
    const filler = Array.from({ length: 210 }, (_, index) => `X-F${index}: 1\r\n`).join('');
    const reply = await raw(port(), [
      `GET /v3/users HTTP/1.1\r\nHost: x\r\n${filler}Authorization: Bearer ${token}\r\nConnection: close\r\n\r\n`,
    ]);
    expect(statusLines(reply.text)).toEqual(['HTTP/1.1 431']);
    expect(reply.text).toContain('"success":false');
  });
});

describe('finding 8: CONNECT', () => {
  it('answers CONNECT with 405 and the envelope', async () => {
    const reply = await raw(port(), ['CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n']);
    expect(statusLines(reply.text)).toEqual(['HTTP/1.1 405']);
    expect(reply.text).toContain('"success":false');
  });
});

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
