import { TargetUnreachableError } from '../../spec/index.ts';
import { type ApiClient, type ApiClientOptions, createApiClient } from './api-client.ts';
import { InconclusiveExchange } from './inconclusive.ts';

/** Resets are retried like any read's; a time-out is not: a target that never answers waits one time-out, not three. */
async function probe(api: ApiClient): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await api.send({ method: 'GET', path: '/', headers: {} }, { retrySafe: false });
      return;
    } catch (error) {
      if (!(error instanceof InconclusiveExchange) || /timed out/.test(error.message) || attempt >= 2)
        throw error;
    }
  }
}

/**
 * One request to the target's base URL before anything else: any HTTP answer will do, none at all
 * throws TargetUnreachableError, so an unreachable target is a usage error (exit 2) and never a
 * report of rules that all skipped or all failed for the same reason.
 */
export async function assertTargetReachable(options: ApiClientOptions): Promise<void> {
  const api = createApiClient(options);
  try {
    await probe(api);
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
