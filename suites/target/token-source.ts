import { ConfigError, type Scope } from '../../spec/index.ts';
import { optionWording, type Wording } from '../runner/setting.ts';
import type { ApiClient } from './api-client.ts';
import { notTheApi } from './assert-the-api.ts';
import type { TargetConfig } from './target-config.ts';

/**
 * Access tokens for the configured client, owned by one run: fetched per scope set, refreshed ahead
 * of their `expires_in_seconds`, and replaced when the target says one is no longer good.
 */

/** A token counts as refused early when this much of its stated life, or a second, was still left. */
export const lifeLeftMs = (lifeMs: number): number => Math.max(1000, lifeMs / 10);
export interface TokenSource {
  /** A live token for these scopes (default: the configured ones); throws a ConfigError when none can be had. */
  get(scopes?: readonly Scope[]): Promise<string>;
  /** A token asked for these scopes and the scope the target granted, or why it gave none (a skip reason). */
  tryGet(scopes: readonly Scope[]): Promise<Grant | { readonly reason: string }>;
  /** A held token for these scopes that is still fresh now, without asking for one (undefined: call get). */
  fresh(scopes: readonly Scope[]): string | undefined;
  /** The scope key of a token this source handed out, or undefined for any other string. */
  owns(token: string): readonly Scope[] | undefined;
  /** Drop `token` (the target answered 401 to it) and fetch its successor. */
  renew(token: string): Promise<string>;
  /** Forget every token (after a rule moved the target's clock past their lifetime). */
  clear(): void;
  /** How often a 401 on a token pacu held forced a new one. */
  readonly renewals: number;
  /** Every token this source was issued, oldest first, with when and for how long (performance.now() ms). */
  issued(): readonly IssuedToken[];
}

/** A token as issued: its scopes, when its answer came, and the life its expires_in_seconds stated. */
export interface IssuedToken {
  readonly token: string;
  readonly scopes: readonly Scope[];
  readonly issuedAt: number;
  /** Infinity when the answer stated no expires_in_seconds. */
  readonly lifeMs: number;
}

/** A token and the scope names the target says it granted (they may differ from those asked). */
export interface Grant {
  readonly token: string;
  readonly granted: readonly string[];
}

interface Held extends Grant {
  readonly scopes: readonly Scope[];
  /** performance.now() after which pacu asks for a new one before using it. */
  readonly refreshAt: number;
}

/** Refresh when this share of a token's life is left (so a 2 s token is renewed after 1 s). */
const REFRESH_SHARE = 0.5;
/** ...but never wait past 30 s before a token's end. */
const MAX_MARGIN_MS = 30_000;

/**
 * The scope names of a token answer's `data.scope` (comma-separated), or undefined when it names
 * none: then pacu assumes the target granted what was asked.
 */
export function parseGrantedScope(value: unknown): readonly string[] | undefined {
  if (typeof value !== 'string') return undefined;
  const names = value
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  return names.length > 0 ? names : undefined;
}

/**
 * Why a token answer's `data.scope` is not what its row states ("string (comma-separated scope
 * names)"), or undefined: a string of one or more names, none empty, none holding white space.
 */
export function scopeFieldProblem(value: unknown): string | undefined {
  if (typeof value !== 'string') return 'not a string of comma-separated scope names';
  const names = value.split(',').map((name) => name.trim());
  if (names.some((name) => name === '')) return 'an empty name where comma-separated scope names are stated';
  const joined = names.find((name) => /\s/.test(name));
  if (joined) return `"${joined}" is not one scope name: the names are separated by commas`;
  return undefined;
}

export function createTokenSource(
  api: ApiClient,
  config: TargetConfig,
  word: Wording = optionWording,
): TokenSource {
  const held = new Map<string, Promise<Held>>();
  /** The settled value of each held promise, for a synchronous look at what is fresh. */
  const settled = new Map<Promise<Held>, Held>();
  const owners = new Map<string, readonly Scope[]>();
  const issued: IssuedToken[] = [];
  let renewals = 0;
  const keyOf = (scopes: readonly Scope[]): string => [...scopes].sort().join(',');

  const fetchToken = async (scopes: readonly Scope[]): Promise<Held> => {
    if (!config.clientId || !config.clientSecret)
      throw new ConfigError(
        `pacu: no client credentials: pass ${word('clientId')} and ${word('clientSecret')} (or PACU_CLIENT_ID / PACU_CLIENT_SECRET); without a token no rule can run`,
      );
    const response = await api.getAccessToken({
      clientId: config.clientId,
      clientSecret: config.clientSecret,
      scope: scopes.join(','),
    });
    const wrong = notTheApi(response, config.baseUrl);
    if (wrong) throw new ConfigError(`pacu: ${wrong}`);
    const data = (
      response.json as { data?: { access_token?: unknown; expires_in_seconds?: unknown; scope?: unknown } }
    )?.data;
    if (response.status !== 200 || typeof data?.access_token !== 'string') {
      throw new TokenRefused(
        `the target refused a token for scope ${scopes.join(',') || '(none)'} (HTTP ${response.status}); check the client credentials and ${word('scopes')}`,
      );
    }
    // Its life runs from when the request left (a pause at the gate before it does not count).
    const started = performance.now() - response.durationMs;
    const lifeMs = typeof data.expires_in_seconds === 'number' ? data.expires_in_seconds * 1000 : Infinity;
    const margin = Math.min(lifeMs * REFRESH_SHARE, MAX_MARGIN_MS);
    owners.set(data.access_token, scopes);
    issued.push({ token: data.access_token, scopes, issuedAt: started, lifeMs });
    const granted = parseGrantedScope(data.scope) ?? scopes;
    return { token: data.access_token, granted, scopes, refreshAt: started + lifeMs - margin };
  };

  const current = async (scopes: readonly Scope[]): Promise<Held> => {
    const key = keyOf(scopes);
    let pending = held.get(key);
    if (pending) {
      const token = await pending.catch(() => undefined);
      if (token && performance.now() < token.refreshAt) return token;
      if (held.get(key) === pending) held.delete(key);
      pending = held.get(key);
    }
    if (!pending) {
      const fetching = fetchToken(scopes);
      fetching.then((value) => settled.set(fetching, value)).catch(() => undefined);
      pending = fetching;
      held.set(key, pending);
    }
    return pending;
  };

  return {
    get: async (scopes = config.scopes) => (await current(scopes)).token,
    async tryGet(scopes) {
      try {
        const { token, granted } = await current(scopes);
        return { token, granted };
      } catch (error) {
        if (error instanceof TokenRefused) return { reason: error.message };
        throw error;
      }
    },
    fresh(scopes) {
      const pending = held.get(keyOf(scopes));
      const value = pending ? settled.get(pending) : undefined;
      return value && performance.now() < value.refreshAt ? value.token : undefined;
    },
    owns: (token) => owners.get(token),
    async renew(token) {
      const scopes = owners.get(token) ?? config.scopes;
      const key = keyOf(scopes);
      const pending = held.get(key);
      // Several rules may hit the same dead token at once: the first renews, the rest share it.
      if (pending && (await pending.catch(() => undefined))?.token === token) held.delete(key);
      renewals += 1;
      return (await current(scopes)).token;
    },
    clear: () => held.clear(),
    issued: () => [...issued],
    get renewals() {
      return renewals;
    },
  };
}

/** The target refused the configured client a token for some scopes: a skip reason, not a usage error. */
export class TokenRefused extends Error {
  override readonly name = 'TokenRefused';
}
