import { TargetUnreachableError } from '../../spec/index.ts';
import { type ApiClientOptions, createApiClient } from './api-client.ts';
import { InconclusiveExchange } from './inconclusive.ts';

/**
 * One request to the target's base URL before anything else: any HTTP answer will do, none at all
 * throws TargetUnreachableError, so an unreachable target is a usage error (exit 2) and never a
 * report of rules that all skipped or all failed for the same reason.
 */
export async function assertTargetReachable(options: ApiClientOptions): Promise<void> {
  const api = createApiClient(options);
  try {
    // One try: a target that never answers is a usage error after one time-out, not three.
    await api.send({ method: 'GET', path: '/', headers: {} }, { retrySafe: false });
  } catch (error) {
    if (!(error instanceof InconclusiveExchange)) throw error;
    throw new TargetUnreachableError(
      `pacu: cannot reach target ${options.baseUrl}: ${error.message}. Is the target URL right and the server up?`,
      { cause: error },
    );
  } finally {
    await api.close();
  }
}
