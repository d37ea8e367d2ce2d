import { errorFor } from '../envelope.ts';
import type { MockReply } from '../http-types.ts';

/** Seconds a client is told to wait while the store cannot answer. */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 1;

/**
 * The store cannot answer now (its database is unreachable, restarting, or too slow): the request
 * is answered 503 with Retry-After, never with stale data, never a 404 for what may exist.
 */
export class StoreUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StoreUnavailableError';
  }
}

/** The 503 every request gets while the store is unavailable: the envelope, and when to try again. */
export function unavailableReply(path: string, error: StoreUnavailableError): MockReply {
  return errorFor(path, 503, `the mock's store is unavailable, try again shortly: ${error.message}`, {
    'retry-after': String(UNAVAILABLE_RETRY_AFTER_SECONDS),
  });
}
