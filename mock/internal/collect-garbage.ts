import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** Loaded states this big get a full collection before the mock listens. */
export const COLLECT_AFTER_LOADING = 100_000;

/**
 * One full garbage collection, now. A state file of a million transfers is read into some ten
 * million objects; left alone, V8's first full collection of them came with the first seconds of
 * traffic and held the event loop for about a second (decision 041). Done before listening, it
 * costs the start that second instead, and sets the next collection's limit from the whole state.
 * `gc()` is reached as jest-leak-detector reaches it: exposed for a new context only, then hidden.
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
