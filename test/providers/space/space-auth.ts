import type { IncomingMessage } from 'node:http';
import type { OperationId } from '../../../spec/index.ts';
import type { Knobs } from './knobs.ts';
import type { Behaviour } from './mutants.ts';
import { Refusal } from './refusal.ts';

export const CLIENT_ID = 'space-client';
const CLIENT_SCOPES = ['card', 'us_account'] as const;
const SECRETS: Record<Knobs['clientSecret'], string> = {
  plain: 'space-secret',
  punctuated: 's3cr:t+with/slash%2Fand=end',
};

export const clientSecretOf = (knobs: Knobs): string => SECRETS[knobs.clientSecret];

/** The scope an operation needs under `by-resource` (only where it needs a bearer at all). */
const SCOPE_OF: Partial<Record<OperationId, string>> = {
  usdTransfer: 'us_account',
  walletPayout: 'us_account',
  createAccount: 'us_account',
  getP2pStatus: 'us_account',
  getVirtualCard: 'card',
  getCardTransaction: 'card',
  getPushToCardPayment: 'card',
};

/** Broken: the scope names as another API might spell them. */
const RENAMED: Readonly<Record<string, string>> = { card: 'cards', us_account: 'us-account' };

const MONEY_MOVEMENT: readonly OperationId[] = ['usdTransfer', 'walletPayout', 'createAccount'];

/** The token endpoint and the bearer check of a space provider; tokens live on the real clock. */
export function createSpaceAuth(knobs: Knobs, mutated: (name: Behaviour) => boolean, newToken: () => string) {
  const tokens = new Map<string, { scopes: readonly string[]; expiresAt: number; uses: number }>();
  const secret = clientSecretOf(knobs);
  let issued = 0;

  function issue(request: IncomingMessage, text: string): Record<string, unknown> {
    const basic = /^Basic +(\S+)$/i.exec(request.headers.authorization ?? '')?.[1] ?? '';
    const decoded = Buffer.from(basic, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    // The user name never holds a colon, so the secret is everything after the first one (RFC 7617).
    const [id, given] = colon < 0 ? [decoded, ''] : [decoded.slice(0, colon), decoded.slice(colon + 1)];
    if (id !== CLIENT_ID || (given !== secret && !mutated('any-client-secret')))
      throw new Refusal(knobs.clientRefusalStatus, 'invalid_client');
    const form = new URLSearchParams(text);
    // Broken: a request without any grant_type is taken for client credentials.
    const absent = form.get('grant_type') === null && mutated('missing-grant-type-accepted');
    if (form.get('grant_type') !== 'client_credentials' && !mutated('any-grant-type') && !absent)
      throw new Refusal(knobs.grantRefusalStatus, 'unsupported_grant_type');
    const asked = (form.get('scope') ?? CLIENT_SCOPES.join(',')).split(',').filter(Boolean);
    if (asked.some((name) => !(CLIENT_SCOPES as readonly string[]).includes(name)))
      throw new Refusal(400, 'invalid_scope');
    const granted = knobs.scopeGrant === 'client-scopes' ? [...CLIENT_SCOPES] : asked;
    const echoed = knobs.scopeOrder === 'sorted-descending' ? [...granted].sort().reverse() : granted;
    const accessToken = newToken();
    issued += 1;
    tokens.set(accessToken, {
      scopes: granted,
      expiresAt: Date.now() + knobs.tokenLifetimeSeconds * 1000,
      uses: 0,
    });
    const names = mutated('scope-names-renamed') ? echoed.map((name) => RENAMED[name] ?? name) : echoed;
    const scope = mutated('scope-not-echoed')
      ? 'default'
      : names.join(mutated('scope-space-separated') ? ' ' : ',');
    return {
      // Broken: every second answer (never the first, which pacu's run holds on to) has a numeric token.
      access_token: mutated('every-second-token-not-a-string') && issued % 2 === 0 ? 4_242_424 : accessToken,
      expires_in_seconds: knobs.tokenLifetimeSeconds,
      scope,
      ...(mutated('token-without-type') || (mutated('token-without-type-for-one-scope') && asked.length === 1)
        ? {}
        : { token_type: knobs.tokenType }),
    };
  }

  function needsBearer(operation: OperationId): boolean {
    if (operation === 'usdTransfer') return !mutated('transfer-without-bearer');
    if (knobs.bearerOn === 'all') return true;
    return knobs.bearerOn === 'money-movement' && MONEY_MOVEMENT.includes(operation);
  }

  /** Throws the refusal a request without the right token gets. */
  function authorize(request: IncomingMessage, operation: OperationId): void {
    if (!needsBearer(operation)) return;
    const presented = /^Bearer +(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
    const token = presented === undefined ? undefined : tokens.get(presented);
    if (token) token.uses += 1;
    // Broken: a token dies after 25 requests, whatever expires_in_seconds says (counted, not timed,
    // so a fast run meets it as surely as a slow one).
    const dead = mutated('tokens-die-early') && (token?.uses ?? 0) > 25;
    if (!token || token.expiresAt <= Date.now() || dead)
      throw new Refusal(knobs.bearerRefusalStatus, 'a valid bearer token is required');
    const scope =
      operation === 'listUsers' && knobs.usersScope === 'us_account' ? 'us_account' : SCOPE_OF[operation];
    if (knobs.scopePerOperation === 'by-resource' && scope && !token.scopes.includes(scope))
      throw new Refusal(knobs.scopeRefusalStatus, `the token lacks scope ${scope}`);
  }

  return { issue, authorize };
}
