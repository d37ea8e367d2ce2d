import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Responder } from './sandbox-http.ts';

export const SCOPES = ['card', 'us_account'] as const;
export type Scope = (typeof SCOPES)[number];

interface Grant {
  readonly scopes: ReadonlySet<string>;
  readonly expiresAt: number;
}

export interface AuthOptions {
  readonly clientId: string;
  readonly clientSecret: string;
  readonly tokenLifetimeSeconds: number;
  readonly now: () => number;
  readonly scopeEcho: (granted: readonly string[]) => string;
  /** The token_type written, or `undefined` for none. */
  readonly tokenType: string | undefined;
}

const same = (a: string, b: string): boolean =>
  timingSafeEqual(createHash('sha256').update(a).digest(), createHash('sha256').update(b).digest());

/** RFC 6749 §2.3.1 form-encodes id and secret before Basic; most clients do not, so both are taken. */
const formDecode = (value: string): string | undefined => {
  try {
    return decodeURIComponent(value.replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
};

/** The OAuth client-credentials token endpoint and the bearer guard of every other endpoint. */
export class SandboxAuth {
  readonly #grants = new Map<string, Grant>();

  constructor(
    private readonly options: AuthOptions,
    private readonly respond: Responder,
  ) {}

  #clientMatches(header: string | undefined): boolean {
    const credentials = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header ?? '')?.[1];
    if (credentials === undefined) return false;
    const decoded = Buffer.from(credentials, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) return false;
    const id = decoded.slice(0, colon);
    const secret = decoded.slice(colon + 1);
    const { clientId, clientSecret } = this.options;
    const raw = same(id, clientId) && same(secret, clientSecret);
    const decodedId = formDecode(id);
    const decodedSecret = formDecode(secret);
    const encoded =
      decodedId !== undefined &&
      decodedSecret !== undefined &&
      same(decodedId, clientId) &&
      same(decodedSecret, clientSecret);
    return raw || encoded;
  }

  /** POST /auth/token: Basic client authentication first, then grant_type, then scope. */
  token(req: IncomingMessage, res: ServerResponse, body: string): void {
    if (!this.#clientMatches(req.headers.authorization)) {
      this.respond.fail(res, 401, 'Client authentication failed', {
        'www-authenticate': 'Basic realm="sandbox", charset="UTF-8"',
      });
      return;
    }
    const form = new URLSearchParams(body);
    for (const key of new Set(form.keys())) {
      if (form.getAll(key).length > 1) {
        this.respond.fail(res, 400, `Parameter ${key} must not be repeated`);
        return;
      }
    }
    const grantType = form.get('grant_type');
    if (grantType === null) {
      this.respond.fail(res, 400, 'grant_type is required');
      return;
    }
    if (grantType !== 'client_credentials') {
      this.respond.fail(res, 400, `Unsupported grant_type ${grantType}: use client_credentials`);
      return;
    }
    const requested = (form.get('scope') ?? '').split(/[\s,]+/).filter((name) => name !== '');
    if (requested.length === 0) {
      this.respond.fail(res, 400, `scope is required: a comma-separated list of ${SCOPES.join(', ')}`);
      return;
    }
    const unknown = requested.filter((name) => !(SCOPES as readonly string[]).includes(name));
    if (unknown.length > 0) {
      this.respond.fail(res, 400, `Invalid scope: ${unknown.join(', ')}`);
      return;
    }
    const granted = [...new Set(requested)];
    const accessToken = `sbx_at_${randomBytes(24).toString('base64url')}`;
    const lifetime = this.options.tokenLifetimeSeconds;
    this.#grants.set(accessToken, {
      scopes: new Set(granted),
      expiresAt: this.options.now() + lifetime * 1000,
    });
    const data: Record<string, unknown> = { access_token: accessToken };
    if (this.options.tokenType !== undefined) data.token_type = this.options.tokenType;
    data.expires_in_seconds = lifetime;
    data.scope = this.options.scopeEcho(granted);
    this.respond.ok(res, 'Access token issued', data, { token: true });
  }

  /**
   * Whether the request may go on: a live token carrying `scope` (any live token when `scope` is
   * undefined). Answers 401 or 403 itself when not; `optional` lets a request without any
   * Authorization header through.
   */
  allow(req: IncomingMessage, res: ServerResponse, scope: Scope | undefined, optional = false): boolean {
    const header = req.headers.authorization;
    if (header === undefined && optional) return true;
    const token = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '')?.[1];
    if (token === undefined) {
      this.respond.fail(res, 401, 'A bearer access token is required', {
        'www-authenticate': 'Bearer realm="sandbox"',
      });
      return false;
    }
    const grant = this.#grants.get(token);
    if (grant === undefined || grant.expiresAt <= this.options.now()) {
      this.respond.fail(res, 401, 'The access token is invalid or has expired', {
        'www-authenticate': 'Bearer realm="sandbox", error="invalid_token"',
      });
      return false;
    }
    if (scope !== undefined && !grant.scopes.has(scope)) {
      this.respond.fail(res, 403, `The access token lacks the ${scope} scope`, {
        'www-authenticate': `Bearer realm="sandbox", error="insufficient_scope", scope="${scope}"`,
      });
      return false;
    }
    return true;
  }
}
