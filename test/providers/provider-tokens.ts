import type { IncomingMessage } from 'node:http';
import { HttpError } from './provider-control.ts';
import type { TestProviderOptions } from './provider-glossary.ts';

/** Every scope the test client holds. */
const CLIENT_SCOPES = 'card,us_account';

export interface TokenDeps {
  readonly clock: { now: number };
  /** pacu's style: 401 for a bad token or client (the other style answers 400). */
  readonly pacu: boolean;
  readonly breaks: (rule: string) => boolean;
  readonly newId: (prefix: string) => string;
  readonly extra: (data: Record<string, unknown>) => Record<string, unknown>;
  readonly secret: string;
  readonly options: TestProviderOptions;
}

/**
 * A test provider's token endpoint and bearer check: lifetimes on its own clock, and (by option)
 * tokens that live a few real seconds or die early (after seconds or uses) while claiming 3600 s.
 */
export function createProviderTokens(deps: TokenDeps) {
  const { clock, pacu, breaks, newId, extra, options } = deps;
  const SECRET = deps.secret;
  const tokens = new Map<string, { scopes: string[]; expiresAt: number; diesAt: number; uses: number }>();
  const issued: string[] = [];
  function issue(request: IncomingMessage, text: string) {
    const credentials = Buffer.from(
      (request.headers.authorization ?? '').replace(/^Basic /, ''),
      'base64',
    ).toString();
    if (credentials !== `client:${SECRET}` && !breaks('auth.token-refusals'))
      throw new HttpError(pacu ? 401 : 400, 'invalid client');
    const form = new URLSearchParams(text);
    if (form.get('grant_type') !== 'client_credentials' && !breaks('auth.token-refusals'))
      throw new HttpError(400, 'unsupported grant_type');
    const asked = (form.get('scope') ?? CLIENT_SCOPES).split(',');
    const scopes = options.grantsEveryScope ? CLIENT_SCOPES.split(',') : asked;
    if (options.wholeScopeOnly && [...scopes].sort().join(',') !== CLIENT_SCOPES)
      throw new HttpError(400, 'invalid_scope: this client is granted card,us_account together only');
    const accessToken = newId('tok');
    issued.push(accessToken);
    const life = options.tokenLifetimeSeconds ?? 3600;
    const dies = options.tokenLifetimeSeconds ?? options.tokensDieAfterSeconds;
    tokens.set(accessToken, {
      scopes,
      expiresAt: clock.now + life * 1000,
      diesAt: dies === undefined ? Infinity : Date.now() + dies * 1000,
      uses: 0,
    });
    // Broken: the grant echoed with a name that was neither asked for nor granted.
    const scope = breaks('auth.token-grant')
      ? `${scopes.join(',')},sandbox_default`
      : options.scopeEcho === 'empty'
        ? ''
        : options.scopeEcho === 'default'
          ? 'default'
          : options.scopeEcho === 'constant' || breaks('auth.granted-scope')
            ? CLIENT_SCOPES
            : scopes.join(options.scopeEcho === 'spaces' ? ' ' : ',');
    return {
      success: true,
      message: 'Token issued',
      data: extra({ access_token: accessToken, expires_in_seconds: life, scope, token_type: 'Bearer' }),
    };
  }

  function authorize(request: IncomingMessage, scopes: readonly string[]): void {
    if (breaks('auth.bearer-required')) return;
    const match = /^Bearer +(\S+)$/.exec(request.headers.authorization ?? '');
    const token = match ? tokens.get(match[1] ?? '') : undefined;
    if (token) token.uses += 1;
    // Broken (auth.token-refused-early): a token dies after 120 requests while claiming 3600 s, and says
    // so with 401, so pacu renews it and only the rule about its life sees it.
    const early = breaks('auth.token-refused-early');
    const uses = options.tokensDieAfterUses ?? (early ? 120 : Infinity);
    if (
      !token ||
      (token.expiresAt <= clock.now && !breaks('auth.token-expired')) ||
      Date.now() >= token.diesAt ||
      token.uses > uses
    )
      throw new HttpError(pacu || early ? 401 : 400, 'a valid bearer token is required');
    if (!breaks('auth.scope-enforced') && scopes.some((scope) => !token.scopes.includes(scope)))
      throw new HttpError(403, `token lacks scope ${scopes.join(',')}`);
  }

  return { issue, authorize, issued };
}
