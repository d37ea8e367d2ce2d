import { Agent, errors as undiciErrors, request as undiciRequest } from 'undici';
import type {
  AccountCreationRequest,
  OperationId,
  UsdTransferRequest,
  WalletPayoutRequest,
} from '../../spec/index.ts';
import { OPERATION_ROUTES, pathFor, TargetUnreachableError } from '../../spec/index.ts';
import { type ApiRequest, type ApiResponse, basic, bearer, jsonRequest } from './api-request.ts';

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
}

export const API_CLIENT_DEFAULTS = { connections: 16, timeoutMs: 10_000 } as const;

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
 * It throws only {@link TargetUnreachableError}, when no HTTP answer came at all.
 */
export interface ApiClient {
  readonly baseUrl: string;
  send(request: ApiRequest): Promise<ApiResponse>;
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
  if (error instanceof undiciErrors.HeadersTimeoutError || error instanceof undiciErrors.BodyTimeoutError)
    return 'timed out';
  if (error instanceof undiciErrors.ConnectTimeoutError) return 'connect timed out';
  if (error instanceof undiciErrors.HTTPParserError || /^HPE_/.test(code))
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
  const agent = new Agent({
    connections: options.connections ?? API_CLIENT_DEFAULTS.connections,
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
    connectTimeout: timeoutMs,
  });

  const send = async (request: ApiRequest): Promise<ApiResponse> => {
    const started = performance.now();
    try {
      const response = await undiciRequest(`${baseUrl}${request.path}`, {
        dispatcher: agent,
        method: request.method,
        headers: { ...options.headers, ...request.headers },
        body: request.body,
      });
      const text = await response.body.text();
      const answer: ApiResponse = {
        status: response.statusCode,
        headers: joinHeaders(response.headers),
        text,
        json: parseJson(text),
        durationMs: performance.now() - started,
      };
      options.observe?.(answer);
      return answer;
    } catch (error) {
      // Nothing but the transport can fail here: no HTTP answer at all is a usage error, never a finding.
      throw new TargetUnreachableError(
        `pacu: cannot reach target ${baseUrl}: ${transportHint(error)}. Is the target URL right and the server up?`,
        { cause: error },
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
    getAccessToken: (grant) => send(tokenRequest(grant)),
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
    close: () => agent.close(),
  };
}
