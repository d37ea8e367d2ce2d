import { timingSafeEqual } from 'node:crypto';
import { parseAuthorization } from '../../http/index.ts';
import type { OperationSecurity } from '../../spec/index.ts';
import type { MockClient } from '../types.ts';
import type { RefusalKind } from './behaviour.ts';
import type { MockContext } from './context.ts';
import { MockHttpError, type MockRequest } from './http-types.ts';
import { decodedOrEmpty } from './request-reads.ts';
import type { StoredToken } from './state.ts';

const INVALID_CLIENT = 'invalid client credentials: send HTTP Basic with your client_id and client_secret';

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/**
 * The client named by HTTP Basic credentials on the token request, or 401. `known` is the client
 * the store has under the id the credentials name (read with the request's other keys).
 */
export function authenticateClient(request: MockRequest, known: MockClient | undefined): MockClient {
  const challenge = { 'www-authenticate': 'Basic realm="pacu"' };
  const refuse = (): never => {
    throw new MockHttpError(401, INVALID_CLIENT, challenge, 'bad-client');
  };
  const credentials = parseAuthorization(request.headers.authorization);
  if (credentials?.scheme !== 'basic' || credentials.user === undefined) return refuse();
  const client = known?.clientId === decodedOrEmpty(credentials.user) ? known : undefined;
  if (!client || !sameText(client.clientSecret, decodedOrEmpty(credentials.password ?? ''))) return refuse();
  return client;
}

function refuse(status: 401 | 403, error: string, message: string, kind: RefusalKind): never {
  throw new MockHttpError(
    status,
    message,
    { 'www-authenticate': `Bearer realm="pacu", error="${error}"` },
    kind,
  );
}

/**
 * The bearer token of a request if it is known, unexpired and carries the operation's scopes.
 * `known` is what the store has under the request's token (read with its other keys).
 */
export function authorizeBearer(
  context: MockContext,
  request: MockRequest,
  security: Extract<OperationSecurity, { kind: 'bearer' }>,
  known: StoredToken | undefined,
): StoredToken {
  const header = request.headers.authorization;
  if (!header)
    refuse(
      401,
      'invalid_request',
      'missing bearer token: send Authorization: Bearer <access_token>',
      'missing-token',
    );
  const credentials = parseAuthorization(header);
  if (credentials?.scheme !== 'bearer')
    refuse(
      401,
      'invalid_request',
      'malformed Authorization header: expected Bearer <access_token>',
      'bad-token',
    );
  const token = known?.token === credentials.token ? known : undefined;
  if (!token)
    refuse(401, 'invalid_token', 'unknown access token: get a new one from POST /auth/token', 'bad-token');
  if (token.expiresAt <= context.clock.now()) {
    // Forgotten in passing: the refusal does not wait for it (a database store prunes them anyway).
    const forgotten = context.store.records.deleteToken(token.token);
    if (forgotten instanceof Promise) forgotten.catch(() => {});
    refuse(401, 'invalid_token', 'access token expired: get a new one from POST /auth/token', 'bad-token');
  }
  const missing = security.scopes.filter((scope) => !token.scopes.includes(scope));
  if (missing.length > 0)
    refuse(403, 'insufficient_scope', `token lacks scope ${missing.join(', ')}`, 'scope');
  return token;
}
