import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** Loaded states this big get a full collection before the mock listens. */
export const COLLECT_AFTER_LOADING = 100_000;

/**
 * One full garbage collection, now: before listening, so a large loaded state's first collection
 * costs the start instead of the first seconds of traffic (decision 041). `gc()` is reached as
 * jest-leak-detector reaches it: exposed for a new context only, then hidden.
 */
export function collectGarbage(): void {
  const exposed = typeof (globalThis as { gc?: unknown }).gc === 'function';
  setFlagsFromString('--expose-gc');
  try {
    (runInNewContext('gc') as () => void)();
  } finally {
    if (!exposed) setFlagsFromString('--no-expose-gc');
  }
}

let startCollected = false;

/**
 * The collection a server's start gets once its modules and Prism are loaded (decision 042): once
 * per process. A later mock of the same process loads nothing new, and a collection of its host's
 * heap (a test runner's, say) would cost each start more than the mock itself.
 */
export function collectStartGarbage(): void {
  if (startCollected) return;
  startCollected = true;
  collectGarbage();
}
