// Shared by the mock's end-to-end tests: a token, JSON calls, a valid transfer body.
import type { MockApp, RunningMock } from '../mock/index.ts';
import { loadSpec } from '../spec/index.ts';

export interface Reply {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
  body: any;
  headers: Headers;
}

export async function call(url: string, init: RequestInit = {}): Promise<Reply> {
  const response = await fetch(url, init);
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined, headers: response.headers };
}

export async function tokenFor(
  mock: { url: string; demoClient: RunningMock['demoClient'] },
  client = mock.demoClient,
  scope = 'card,us_account',
): Promise<string> {
  const reply = await call(`${mock.url}/auth/token`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${client.clientId}:${client.clientSecret}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams({ grant_type: 'client_credentials', scope }).toString(),
  });
  if (reply.status !== 200) throw new Error(`token: ${reply.status} ${JSON.stringify(reply.body)}`);
  return reply.body.data.access_token;
}

/** A bearer token from an in-process mock (`app.request()`), for its demo client. */
export async function appToken(
  app: Pick<MockApp, 'request' | 'demoClient'>,
  scope = 'card,us_account',
): Promise<string> {
  const { clientId, clientSecret } = app.demoClient;
  const answer = await app.request('/v3/auth/token', {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams({ grant_type: 'client_credentials', scope }).toString(),
  });
  if (answer.status !== 200) throw new Error(`token: ${answer.status} ${await answer.text()}`);
  return ((await answer.json()) as { data: { access_token: string } }).data.access_token;
}

export function postJson(url: string, token: string, body: unknown): Promise<Reply> {
  return call(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

export function getJson(url: string, token: string): Promise<Reply> {
  return call(url, { headers: { authorization: `Bearer ${token}` } });
}

const spec = await loadSpec();
/** The spec's own example transfer (ACH); tests override what they need. */
const EXAMPLE_TRANSFER = spec.operation('usdTransfer').requestBody?.examples.ach as Record<string, unknown>;

/** A valid transfer from `accountId` with a fresh reference, WIRE unless overridden. */
export function transferBody(
  accountId: string,
  overrides: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    ...EXAMPLE_TRANSFER,
    account_id: accountId,
    transfer_type: 'WIRE',
    reference: `REF-${Math.random().toString(36).slice(2)}`,
    ...overrides,
  };
}
