import { type ApiClientOptions, createApiClient } from './api-client.ts';

/**
 * One request to the target's base URL before anything else: any HTTP answer will do, none at all
 * throws TargetUnreachableError, so an unreachable target is a usage error (exit 2) and never a
 * report of rules that all skipped or all failed for the same reason.
 */
export async function assertTargetReachable(options: ApiClientOptions): Promise<void> {
  const api = createApiClient(options);
  try {
    await api.send({ method: 'GET', path: '/', headers: {} });
  } finally {
    await api.close();
  }
}
