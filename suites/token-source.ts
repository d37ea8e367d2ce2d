import type { Scope } from '../spec/index.ts';
import type { ApiClient } from './api-client.ts';
import { Skip } from './rule.ts';
import type { TargetConfig } from './target-config.ts';

/** Access tokens for the configured client, fetched once per scope set and shared by every rule. */
export interface TokenSource {
  /** A token for these scopes (default: the configured ones), or a {@link Skip} saying why there is none. */
  get(scopes?: readonly Scope[]): Promise<string | Skip>;
  /** Forget every token (after a rule moved the target's clock past their lifetime). */
  clear(): void;
}

const NO_CLIENT =
  'needs client credentials: pass --client-id and --client-secret (or PACU_CLIENT_ID / PACU_CLIENT_SECRET)';

export function createTokenSource(api: ApiClient, config: TargetConfig): TokenSource {
  const cache = new Map<string, Promise<string | Skip>>();
  const fetchToken = async (scopes: readonly Scope[]): Promise<string | Skip> => {
    if (!config.clientId || !config.clientSecret) return new Skip(NO_CLIENT);
    const response = await api.getAccessToken({
      clientId: config.clientId,
      clientSecret: config.clientSecret,
      scope: scopes.join(','),
    });
    const token = (response.json as { data?: { access_token?: unknown } } | undefined)?.data?.access_token;
    if (response.status !== 200 || typeof token !== 'string') {
      return new Skip(
        `the target refused a token for scope ${scopes.join(',') || '(none)'} (HTTP ${response.status}); check the client credentials and --scopes`,
      );
    }
    return token;
  };
  return {
    get(scopes = config.scopes) {
      const key = [...scopes].sort().join(',');
      let pending = cache.get(key);
      if (!pending) {
        pending = fetchToken(scopes);
        cache.set(key, pending);
      }
      return pending;
    },
    clear: () => cache.clear(),
  };
}
