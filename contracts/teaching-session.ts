import { randomBytes } from 'node:crypto';
import { ConfigError } from '../spec/index.ts';
import {
  type ApiRequest,
  type ApiResponse,
  basic,
  bearer,
  createApiClient,
  jsonRequest,
  type TargetIds,
} from '../suites/index.ts';

export interface TeachingSessionOptions {
  /** Where to send the session: a `pacu proxy` in front of the sandbox, so it is recorded. */
  readonly baseUrl: string;
  readonly clientId: string;
  readonly clientSecret: string;
  /** Records no operation creates, read when given (cards, push-to-card); `accountId` is the funds source. */
  readonly ids?: TargetIds;
  /** Sent with every request (a sandbox's API key). */
  readonly headers?: Readonly<Record<string, string>>;
  /** @default 10000 */
  readonly timeoutMs?: number;
}

/** One request of the session, what it teaches and how the sandbox answered. */
export interface TaughtStep {
  readonly teaches: string;
  readonly method: string;
  readonly path: string;
  readonly status: number;
}

/** A bearer token no sandbox issued: the redactor keeps it, so the recording shows it was refused as such. */
export const NEVER_ISSUED_TOKEN = 'pacu-never-issued-teaching-session';
/** Tokens that live this long or less are asked for again before each request. */
const SHORT_LIFETIME_MS = 30_000;
/** Added to the client secret for the wrong-secret request (the recording keeps the suffix, not the secret). */
const WRONG_SECRET_SUFFIX = '-pacu-wrong';

interface Session {
  token: string;
  /** When the token was issued and how long it lives (ms): a token is renewed at half its life. */
  issuedAt: number;
  lifetimeMs: number;
  userId?: string;
  accountId?: string;
}

const FORM = { 'content-type': 'application/x-www-form-urlencoded' } as const;

function dataOf(response: ApiResponse): Record<string, unknown> | undefined {
  const data = (response.json as { data?: unknown } | undefined)?.data;
  return data && typeof data === 'object' ? (data as Record<string, unknown>) : undefined;
}

/**
 * The few requests that teach `pacu mock --from-recording` a sandbox's choices, for a team with no
 * client yet: tokens, paging, reads, refusals, replays and the payments (docs/decisions/143). Send
 * it through `pacu proxy --record`, as `pacu record` does: the recording is what the mock learns from.
 *
 * @example
 * const steps = await runTeachingSession({ baseUrl: proxy.url, clientId, clientSecret });
 */
export async function runTeachingSession(options: TeachingSessionOptions): Promise<TaughtStep[]> {
  const api = createApiClient({
    baseUrl: options.baseUrl,
    connections: 1,
    ...(options.headers ? { headers: options.headers } : {}),
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
  });
  const ids = options.ids ?? {};
  const tag = randomBytes(4).toString('hex');
  const reference = (n: number) => `pacu-teach-${tag}-${n}`;
  const session: Session = { token: '', issuedAt: 0, lifetimeMs: 0 };
  const steps: TaughtStep[] = [];
  const send = async (teaches: string, request: ApiRequest): Promise<ApiResponse> => {
    const response = await api.send(request);
    steps.push({ teaches, method: request.method, path: request.path, status: response.status });
    return response;
  };
  const tokenOf = async (teaches: string, scope: string, secret = options.clientSecret) => {
    const response = await send(teaches, {
      method: 'POST',
      path: '/auth/token',
      headers: { ...FORM, ...basic(options.clientId, secret) },
      // The comma as clients and the proxy guide's curl send it, not percent-encoded.
      body: `grant_type=client_credentials&scope=${scope}`,
    });
    const issued = dataOf(response)?.access_token;
    if (typeof issued !== 'string') return undefined;
    const lifetime = Number(dataOf(response)?.expires_in_seconds);
    session.lifetimeMs = (Number.isFinite(lifetime) && lifetime > 0 ? lifetime : 3600) * 1000;
    return issued;
  };
  /**
   * The session's token, renewed when half its life is gone, and before every request when it lives
   * only seconds (a loaded host can pause longer than that between a token and its use).
   */
  const withToken = async (): Promise<Record<string, string>> => {
    const age = Date.now() - session.issuedAt;
    if (age > session.lifetimeMs / 2 || session.lifetimeMs <= SHORT_LIFETIME_MS) {
      const asked = Date.now();
      const renewed = await tokenOf('a token of every scope, renewed', 'card,us_account');
      if (renewed) session.token = renewed;
      session.issuedAt = asked;
    }
    return bearer(session.token);
  };
  try {
    const asked = Date.now();
    const token = await tokenOf(
      'token lifetime and type, granted scope, base path, content type',
      'card,us_account',
    );
    if (!token)
      throw new ConfigError(
        `pacu: the token request to ${options.baseUrl} was refused: check --client-id and --client-secret`,
      );
    session.token = token;
    session.issuedAt = asked;
    await tokenOf(
      'the refusal of a wrong client secret',
      'card,us_account',
      `${options.clientSecret}${WRONG_SECRET_SUFFIX}`,
    );
    await send('the refusal of another grant type', {
      method: 'POST',
      path: '/auth/token',
      headers: { ...FORM, ...basic(options.clientId, options.clientSecret) },
      body: 'grant_type=password&scope=card',
    });
    const users = await send('paging defaults and the user records', {
      method: 'GET',
      path: '/users',
      headers: await withToken(),
    });
    const first = (dataOf(users)?.items as Array<{ user_id?: unknown }> | undefined)?.[0]?.user_id;
    session.userId = ids.userId ?? (typeof first === 'string' ? first : undefined);
    for (const query of ['page=2&per_page=1', 'page=2&page_size=1', 'offset=1&limit=1'])
      await send('paging query names', {
        method: 'GET',
        path: `/users?${query}`,
        headers: await withToken(),
      });
    await send('whether a read needs a token, and the refusal of a request without one', {
      method: 'GET',
      path: '/users',
      headers: {},
    });
    if (session.userId)
      await send('the p2p status record', {
        method: 'GET',
        path: `/p2p/status/${encodeURIComponent(session.userId)}`,
        headers: await withToken(),
      });
    if (ids.cardId) {
      await send('the virtual card record', {
        method: 'GET',
        path: `/cards/virtual/${encodeURIComponent(ids.cardId)}`,
        headers: await withToken(),
      });
      if (ids.cardTransactionId)
        await send('the card transaction record', {
          method: 'GET',
          path: `/cards/${encodeURIComponent(ids.cardId)}/transactions/${encodeURIComponent(ids.cardTransactionId)}`,
          headers: await withToken(),
        });
    }
    if (ids.pushToCardId)
      await send('the push-to-card record', {
        method: 'GET',
        path: `/payments/card/${encodeURIComponent(ids.pushToCardId)}`,
        headers: await withToken(),
      });
    await send('the refusal of an unknown id in a path', {
      method: 'GET',
      path: `/cards/virtual/pacu-unknown-card-${tag}`,
      headers: await withToken(),
    });
    await send('the refusal of a path of no operation', {
      method: 'GET',
      path: `/pacu-no-such-path-${tag}`,
      headers: await withToken(),
    });
    if (session.userId) {
      const account = await send(
        'the account record and its ids',
        jsonRequest('POST', '/accounts', { hold_balance: true, user_id: session.userId }, await withToken()),
      );
      const made = dataOf(account)?.account_id;
      session.accountId = ids.accountId ?? (typeof made === 'string' ? made : undefined);
      await send(
        'the refusal of an unknown id in a body',
        jsonRequest(
          'POST',
          '/accounts',
          { hold_balance: true, user_id: `pacu-unknown-user-${tag}` },
          await withToken(),
        ),
      );
    }
    if (session.accountId) {
      const transfer = {
        account_id: session.accountId,
        account_number: '000123456789',
        account_type: 'CHECKING',
        amount: 125.5,
        routing_number: '021000021',
        transfer_type: 'ACH',
        reference: reference(1),
        recipient_email: 'ada@example.com',
        recipient_name: 'Ada Lovelace',
        description: 'pacu teaching session',
      };
      const post = async (teaches: string, body: unknown, headers?: Record<string, string>) =>
        send(teaches, jsonRequest('POST', '/payments/usd/direct', body, headers ?? (await withToken())));
      await post('the transfer record: echoes, extra fields, id and timestamp forms, amounts', transfer);
      await post('how an exact replay is answered', transfer);
      await post('a reference used again with another body', { ...transfer, amount: 99 });
      const { description: _description, ...bare } = transfer;
      await post('whether a field the request left out is in the record', {
        ...bare,
        reference: reference(2),
      });
      const { amount: _amount, ...withoutAmount } = transfer;
      await post('the refusal of a body without a required field', {
        ...withoutAmount,
        reference: reference(3),
      });
      await send('whether a JSON body labelled text/plain is read', {
        method: 'POST',
        path: '/payments/usd/direct',
        headers: { ...(await withToken()), 'content-type': 'text/plain' },
        body: JSON.stringify({ ...transfer, reference: reference(4) }),
      });
      await post(
        'the refusal of a token never issued',
        { ...transfer, reference: reference(5) },
        bearer(NEVER_ISSUED_TOKEN),
      );
      await send(
        'the wallet payout record',
        jsonRequest(
          'POST',
          '/payments/wallet',
          {
            account_id: session.accountId,
            amount: 40,
            wallet_id: 'Grace.Hopper@Example.com',
            recipient_name: 'Grace Hopper',
            description: 'pacu teaching session',
          },
          await withToken(),
        ),
      );
      const cardOnly = await tokenOf('a token of one scope', 'card');
      if (cardOnly)
        await post(
          "the refusal of a token without the operation's scope",
          { ...transfer, reference: reference(6) },
          bearer(cardOnly),
        );
      // Leave the recording with a token of every scope, as a client's next request would have.
      await tokenOf('a token of every scope again', 'card,us_account');
    }
    return steps;
  } finally {
    await api.close();
  }
}
