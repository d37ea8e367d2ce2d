import { ConfigError } from '../../spec/index.ts';
import { type ApiClientOptions, createApiClient } from './api-client.ts';
import type { ApiResponse } from './api-request.ts';
import type { TargetConfig } from './target-config.ts';

/** Why the answer to POST /auth/token shows the target is not the API at all, or undefined. */
export function notTheApi(response: ApiResponse, baseUrl: string): string | undefined {
  if (response.status === 404)
    return `POST /auth/token answered 404: does the target URL end in /v3? (${baseUrl})`;
  // The body decides, not the media type: JSON sent as text/plain is envelope.content-type's finding.
  if (response.json === undefined || typeof response.json !== 'object') {
    const type = response.headers['content-type'] ?? 'no content type';
    return `POST /auth/token answered HTTP ${response.status} ${type}, not JSON: is ${baseUrl} the API's base URL (ending in /v3)?`;
  }
  return undefined;
}

/**
 * One token request before anything else (with the client's credentials when there are any): no
 * answer throws TargetUnreachableError, an answer that is not the API's a ConfigError, so a wrong
 * target is one line and exit 2, never a report of interactions that all failed or all skipped.
 */
export async function assertTargetIsTheApi(
  options: ApiClientOptions,
  client: Pick<TargetConfig, 'clientId' | 'clientSecret' | 'scopes'>,
): Promise<void> {
  const api = createApiClient(options);
  try {
    const response = await api.getAccessToken({
      clientId: client.clientId ?? '',
      clientSecret: client.clientSecret ?? '',
      scope: client.scopes.join(','),
    });
    const wrong = notTheApi(response, options.baseUrl);
    if (wrong) throw new ConfigError(`pacu: ${wrong}`);
  } finally {
    await api.close();
  }
}
