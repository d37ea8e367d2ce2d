// Record real exchanges as HAR the way `pacu proxy --record` writes them: undici against a provider
// started by the test, each exchange a http/har.ts entry, credentials redacted by http/redaction.ts.
import { request } from 'undici';
import { createRedactor, emptyHar, type Har, type HarNameValue, harEntry } from '../../http/index.ts';
import { basic } from '../../suites/index.ts';

export interface Recorder {
  /** Send one request (path relative to the base URL); `bearer` sends the last token issued. */
  send(
    method: 'GET' | 'POST',
    path: string,
    options?: { json?: unknown; form?: string; basicAuth?: boolean; bearer?: boolean },
  ): Promise<{ status: number; json: unknown }>;
  readonly har: Har;
}

/** A recorder on `baseUrl` for a client; its HAR holds no credential, only the redactor's stand-ins. */
export function recorder(baseUrl: string, client: { clientId: string; clientSecret: string }): Recorder {
  const redactor = createRedactor(client);
  const har = emptyHar({ name: 'pacu-test-recorder', version: '1' });
  const entries = har.log.entries as ReturnType<typeof harEntry>[];
  let token = '';
  return {
    har,
    async send(method, path, options = {}) {
      const headers: Record<string, string> = {};
      let body: string | undefined;
      if (options.json !== undefined) {
        headers['content-type'] = 'application/json';
        body = JSON.stringify(options.json);
      }
      if (options.form !== undefined) {
        headers['content-type'] = 'application/x-www-form-urlencoded';
        body = options.form;
      }
      if (options.basicAuth) Object.assign(headers, basic(client.clientId, client.clientSecret));
      if (options.bearer) headers.authorization = `Bearer ${token}`;
      const startedAt = new Date();
      const url = `${baseUrl}${path}`;
      const response = await request(url, { method, headers, body });
      const text = await response.body.text();
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
      redactor.observe({ json });
      const issued = (json as { data?: { access_token?: unknown } } | undefined)?.data?.access_token;
      if (typeof issued === 'string') token = issued;
      const pairs = (record: Record<string, string | string[] | undefined>): HarNameValue[] =>
        Object.entries(record).map(([name, value]) => ({
          name,
          value: redactor.redact(Array.isArray(value) ? value.join(', ') : String(value)),
        }));
      entries.push(
        harEntry({
          startedAt,
          durationMs: Date.now() - startedAt.getTime(),
          method,
          url,
          requestHeaders: pairs(headers),
          ...(body !== undefined ? { requestBody: redactor.redact(body) } : {}),
          status: response.statusCode,
          statusText: '',
          responseHeaders: pairs(response.headers),
          responseBody: redactor.redact(text),
        }),
      );
      return { status: response.statusCode, json };
    },
  };
}

/** The ids a recording session reads: the provider's own records. */
export interface ProviderIds {
  cardId: string;
  cardTransactionId: string;
  pushToCardId: string;
  accountId: string;
}

/**
 * A merchant's session on every operation: token, users, p2p status, card and its transaction,
 * push-to-card read, an account, a USD transfer sent twice (same reference), a wallet payout and
 * a refused transfer (no amount).
 */
export async function recordSession(
  baseUrl: string,
  client: { clientId: string; clientSecret: string },
  ids: ProviderIds,
): Promise<Har> {
  const session = recorder(baseUrl, client);
  await session.send('POST', '/auth/token', {
    form: 'grant_type=client_credentials&scope=card%2Cus_account',
    basicAuth: true,
  });
  const users = await session.send('GET', '/users?page=1&per_page=5', { bearer: true });
  const userId = (users.json as { data: { items: Array<{ user_id: string }> } }).data.items[0]?.user_id;
  await session.send('GET', `/p2p/status/${userId}`, { bearer: true });
  await session.send('GET', `/cards/virtual/${ids.cardId}`, { bearer: true });
  await session.send('GET', `/cards/${ids.cardId}/transactions/${ids.cardTransactionId}`, { bearer: true });
  await session.send('GET', `/payments/card/${ids.pushToCardId}`, { bearer: true });
  await session.send('POST', '/accounts', { json: { hold_balance: true, user_id: userId }, bearer: true });
  const transfer = {
    account_id: ids.accountId,
    account_number: '000123456789',
    account_type: 'CHECKING',
    amount: 125.5,
    routing_number: '021000021',
    transfer_type: 'ACH',
    reference: 'inv-2026-0042',
    recipient_email: 'ada@example.com',
    recipient_name: 'Ada Lovelace',
    description: 'Invoice 42',
  };
  await session.send('POST', '/payments/usd/direct', { json: transfer, bearer: true });
  await session.send('POST', '/payments/usd/direct', { json: transfer, bearer: true });
  await session.send('POST', '/payments/wallet', {
    json: {
      account_id: ids.accountId,
      amount: 40,
      wallet_id: 'grace@example.com',
      recipient_name: 'Grace Hopper',
      description: 'Refund',
    },
    bearer: true,
  });
  // Refused by any provider: the description requires amount.
  const { amount: _amount, ...withoutAmount } = transfer;
  await session.send('POST', '/payments/usd/direct', {
    json: { ...withoutAmount, reference: 'inv-2026-0043' },
    bearer: true,
  });
  return session.har;
}
