import type { Agent, request as undiciRequest } from 'undici';
import { decodedText, retryAfterForm, retryAfterMs } from '../../http/index.ts';
import type {
  AccountCreationRequest,
  OperationId,
  UsdTransferRequest,
  WalletPayoutRequest,
} from '../../spec/index.ts';
import { OPERATION_ROUTES, pathFor, TargetUnreachableError } from '../../spec/index.ts';
import { type ApiRequest, type ApiResponse, basic, bearer, jsonRequest } from './api-request.ts';
import { InconclusiveExchange } from './inconclusive.ts';
import { createPacer, type Pacer } from './pacer.ts';
import { backoffMs } from './retry-after.ts';

export interface ApiClientOptions {
  /** The target's base URL including the version segment, e.g. `http://127.0.0.1:4010/v3`. */
  readonly baseUrl: string;
  /** Keep-alive connections to the target at most. @default 16 */
  readonly connections?: number;
  /** Time for a whole exchange before it counts as a timeout. @default 10000 */
  readonly timeoutMs?: number;
  /** Sent with every request (e.g. a sandbox's API key header); a request's own header of the same name wins. */
  readonly headers?: Readonly<Record<string, string>>;
  /** Sees every response (the run's redactor learns the tokens the target issues from it). */
  readonly observe?: (response: ApiResponse) => void;
  /** The gate every request passes (rate, pauses, in-flight window). @default one of its own, unlimited */
  readonly pacer?: Pacer;
  /** Longest a request waits out 429 and 503 answers before its case is inconclusive. @default 60000 */
  readonly maxThrottleWaitMs?: number;
}

export const API_CLIENT_DEFAULTS = {
  connections: 16,
  timeoutMs: 10_000,
  maxThrottleWaitMs: 60_000,
  /** Resends of a read whose answer was lost (a reset, a time-out). */
  readRetries: 2,
  /** First wait when a 429 or 503 names no Retry-After; doubled each time, up to the cap. */
  backoffBaseMs: 250,
  backoffCapMs: 8_000,
} as const;

/** How a request may be resent when its answer is lost. */
export interface SendOptions {
  /** Safe to send again after a lost answer. @default true for GET, false otherwise */
  readonly retrySafe?: boolean;
  /** Sent ahead of the queue (a token the queued requests wait for); pauses still hold it. @default false */
  readonly urgent?: boolean;
  /**
   * What must be fresh when the request's turn comes (a held token may age while it waits at the
   * gate): `fill` completes the request, or gives undefined when `refresh` must run first, outside the gate.
   */
  readonly atTurn?: {
    readonly fill: (request: ApiRequest) => ApiRequest | undefined;
    readonly refresh: () => Promise<unknown>;
  };
}

/** Now on the target's clock: pacu's, unless the answer's Date says the target's is off by over 2 s. */
function targetNow(date: string | undefined): number {
  const now = Date.now();
  const theirs = Date.parse(date ?? '');
  // A Date names a whole second: the middle of it is the best guess of the target's now.
  return Number.isNaN(theirs) || Math.abs(theirs + 500 - now) <= 2000 ? now : theirs + 500;
}

/** Answers that say "not now" rather than judge the request: waited out and sent again. */
const NOT_NOW = new Set([429, 503]);

export interface TokenGrant {
  readonly clientId: string;
  readonly clientSecret: string;
  /** Comma-separated scope names; left out of the form when undefined. */
  readonly scope?: string;
  /** @default 'client_credentials' */
  readonly grantType?: string;
}

/**
 * A small typed client for the nine operations, on an undici keep-alive pool. Every method returns
 * the whole exchange (status, headers, body) rather than throwing on 4xx/5xx: the caller judges.
 * It throws {@link TargetUnreachableError} when nothing listens, and {@link InconclusiveExchange}
 * when an answer was lost and the request may not be resent.
 */
export interface ApiClient {
  readonly baseUrl: string;
  /**
   * Send one request through the run's pacer. A 429 or 503 is waited out (Retry-After, else a
   * backoff) and the same request sent again; a lost answer is resent for a read and throws
   * {@link InconclusiveExchange} for a write.
   */
  send(request: ApiRequest, options?: SendOptions): Promise<ApiResponse>;
  getAccessToken(grant: TokenGrant): Promise<ApiResponse>;
  usdTransfer(body: UsdTransferRequest, token?: string): Promise<ApiResponse>;
  walletPayout(body: WalletPayoutRequest, token?: string): Promise<ApiResponse>;
  createAccount(body: AccountCreationRequest, token?: string): Promise<ApiResponse>;
  getCardTransaction(cardId: string, transactionId: string, token?: string): Promise<ApiResponse>;
  getPushToCardPayment(transactionId: string, token?: string): Promise<ApiResponse>;
  getVirtualCard(cardId: string, token?: string): Promise<ApiResponse>;
  listUsers(query?: { page?: number; per_page?: number }, token?: string): Promise<ApiResponse>;
  getP2pStatus(userId: string, token?: string): Promise<ApiResponse>;
  close(): Promise<void>;
}

/** Form body of the token request. */
export function tokenRequest(grant: TokenGrant): ApiRequest {
  const form = new URLSearchParams({ grant_type: grant.grantType ?? 'client_credentials' });
  if (grant.scope !== undefined) form.set('scope', grant.scope);
  return {
    method: 'POST',
    path: OPERATION_ROUTES.getAccessToken.path,
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      ...basic(grant.clientId, grant.clientSecret),
    },
    body: form.toString(),
  };
}

/** What went wrong below HTTP, in words a user can act on. */
function transportHint(error: unknown): string {
  const code =
    (error as { code?: string; cause?: { code?: string } })?.code ??
    (error as { cause?: { code?: string } })?.cause?.code ??
    '';
  if (code === 'ECONNREFUSED') return 'connection refused';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'host not found';
  // undici's error codes, read as codes: undici loads with the first request (see createApiClient).
  if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') return 'timed out';
  if (code === 'UND_ERR_CONNECT_TIMEOUT') return 'connect timed out';
  if ((error as Error)?.name === 'HTTPParserError' || /^HPE_/.test(code))
    return 'it answered something that is not HTTP/1.1';
  if (code.startsWith('ERR_SSL') || code === 'EPROTO')
    return `the TLS handshake failed (${code}); if the server speaks plain HTTP, use http://`;
  if (/CERT|SELF_SIGNED/.test(code)) return `its TLS certificate is not trusted (${code})`;
  if (code === 'UND_ERR_SOCKET' || code === 'ECONNRESET') return 'the connection closed without an answer';
  return code ? code.toLowerCase() : ((error as Error)?.message ?? String(error));
}

function joinHeaders(raw: Record<string, string | string[] | undefined>): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * @example
 * const api = createApiClient({ baseUrl: 'http://127.0.0.1:4010/v3' });
 * const token = await api.getAccessToken({ clientId, clientSecret, scope: 'card,us_account' });
 */
export function createApiClient(options: ApiClientOptions): ApiClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const timeoutMs = options.timeoutMs ?? API_CLIENT_DEFAULTS.timeoutMs;
  // undici loads with the first request, not with suites/: a command that only prints its help or a
  // usage error never needs it (a fifth of a second of every start).
  let transport: Promise<{ agent: Agent; request: typeof undiciRequest }> | undefined;
  const undici = () =>
    (transport ??= import('undici').then(({ Agent, request }) => ({
      agent: new Agent({
        connections: options.connections ?? API_CLIENT_DEFAULTS.connections,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
        connectTimeout: timeoutMs,
      }),
      request,
    })));

  const pacer = options.pacer ?? createPacer();
  const maxWaitMs = options.maxThrottleWaitMs ?? API_CLIENT_DEFAULTS.maxThrottleWaitMs;

  const exchange = async (given: ApiRequest, sendOptions: SendOptions): Promise<ApiResponse> => {
    const { atTurn } = sendOptions;
    const release = await pacer.acquire(sendOptions.urgent);
    let request = atTurn ? atTurn.fill(given) : given;
    // The held token aged while the request waited: a new one, fetched ahead of the queue, and on.
    for (let tries = 0; !request; tries++) {
      await atTurn?.refresh();
      // A token that is never fresh (no lifetime left on arrival) goes as it is: a 401 renews it.
      request = atTurn?.fill(given) ?? (tries >= 1 ? given : undefined);
    }
    pacer.count('sent');
    const started = performance.now();
    let throttled = false;
    try {
      const { agent, request: send } = await undici();
      const response = await send(`${baseUrl}${request.path}`, {
        dispatcher: agent,
        method: request.method,
        headers: { ...options.headers, ...request.headers },
        body: request.body,
      });
      // A provider may compress whatever was asked: the text judged and shown is the decoded one.
      const coding = response.headers['content-encoding'];
      const text =
        coding === undefined
          ? await response.body.text()
          : decodedText(Buffer.from(await response.body.arrayBuffer()), coding);
      throttled = NOT_NOW.has(response.statusCode);
      return {
        status: response.statusCode,
        headers: joinHeaders(response.headers),
        text,
        json: parseJson(text),
        durationMs: performance.now() - started,
      };
    } finally {
      release(performance.now() - started, throttled);
    }
  };

  const send = async (request: ApiRequest, sendOptions: SendOptions = {}): Promise<ApiResponse> => {
    const retrySafe = sendOptions.retrySafe ?? request.method === 'GET';
    let waited = 0;
    let notNow = 0;
    let lost = 0;
    for (;;) {
      let answer: ApiResponse;
      try {
        answer = await exchange(request, sendOptions);
      } catch (error) {
        const hint = transportHint(error);
        // Nothing listens: a usage error (exit 2), never a finding.
        if (hint === 'connection refused' || hint === 'host not found')
          throw new TargetUnreachableError(
            `pacu: cannot reach target ${baseUrl}: ${hint}. Is the target URL right and the server up?`,
            { cause: error },
          );
        if (!retrySafe || lost >= API_CLIENT_DEFAULTS.readRetries)
          throw new InconclusiveExchange(
            `${request.method} ${request.path}: ${hint}${retrySafe ? ` (${lost + 1} tries)` : request.method === 'GET' ? '' : ' (a write is never resent blindly)'}`,
            { cause: error },
          );
        lost += 1;
        pacer.count('retried');
        await new Promise((resolve) => setTimeout(resolve, backoffMs(lost - 1, 100, 2_000)));
        continue;
      }
      if (!NOT_NOW.has(answer.status)) {
        options.observe?.(answer);
        return answer;
      }
      pacer.count('throttled');
      const header = answer.headers['retry-after'];
      // An HTTP date is read on pacu's clock, or on the target's own Date when the two differ by more
      // than the second a Date rounds to (a skewed clock). It may already be past: never less than
      // the first backoff.
      const wait = Math.max(
        API_CLIENT_DEFAULTS.backoffBaseMs,
        retryAfterMs(header, targetNow(answer.headers.date)) ??
          backoffMs(notNow, API_CLIENT_DEFAULTS.backoffBaseMs, API_CLIENT_DEFAULTS.backoffCapMs),
      );
      if (waited + wait > maxWaitMs)
        throw new InconclusiveExchange(
          `${request.method} ${request.path}: the target kept answering HTTP ${answer.status} for ${Math.round((waited + wait) / 1000)} s`,
        );
      notNow += 1;
      waited += wait;
      pacer.pause(
        wait,
        answer.status === 429 ? 'throttled' : 'unavailable',
        retryAfterForm(header),
        performance.now() - answer.durationMs,
      );
    }
  };
  const get = (path: string, token?: string): Promise<ApiResponse> =>
    send({ method: 'GET', path, headers: bearer(token) });
  const path = (id: OperationId, params: Record<string, string> = {}): string =>
    pathFor({ id, path: OPERATION_ROUTES[id].path }, params);

  return {
    baseUrl,
    send,
    // A token request creates nothing the description names: asking again is harmless.
    getAccessToken: (grant) => send(tokenRequest(grant), { retrySafe: true, urgent: true }),
    usdTransfer: (body, token) => send(jsonRequest('POST', path('usdTransfer'), body, bearer(token))),
    walletPayout: (body, token) => send(jsonRequest('POST', path('walletPayout'), body, bearer(token))),
    createAccount: (body, token) => send(jsonRequest('POST', path('createAccount'), body, bearer(token))),
    getCardTransaction: (cardId, transactionId, token) =>
      get(path('getCardTransaction', { card_id: cardId, transaction_id: transactionId }), token),
    getPushToCardPayment: (transactionId, token) =>
      get(path('getPushToCardPayment', { transaction_id: transactionId }), token),
    getVirtualCard: (cardId, token) => get(path('getVirtualCard', { card_id: cardId }), token),
    listUsers: (query = {}, token) => {
      const search = new URLSearchParams();
      for (const [key, value] of Object.entries(query))
        if (value !== undefined) search.set(key, String(value));
      const text = search.toString();
      return get(`${path('listUsers')}${text ? `?${text}` : ''}`, token);
    },
    getP2pStatus: (userId, token) => get(path('getP2pStatus', { user_id: userId }), token),
    close: async () => {
      if (transport) await (await transport).agent.close();
    },
  };
}
