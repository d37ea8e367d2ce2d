// No export is named `then`: a module whose namespace has one is a thenable, and `await import()` calls it.
/**
 * A value now, or later. The memory store answers with values, so a request on it runs without a
 * promise or a microtask turn, as fast as before the seam; a database store answers with promises.
 */
export type Maybe<T> = T | Promise<T>;

/** `then` on a value that may not be a promise: runs at once when it is not. */
export function andThen<T, R>(value: Maybe<T>, next: (value: T) => Maybe<R>): Maybe<R> {
  return value instanceof Promise ? value.then(next) : next(value);
}

/** `result` once `write` is done (at once when it was not a promise). */
export function after<R>(write: Maybe<unknown>, result: R): Maybe<R> {
  return write instanceof Promise ? write.then(() => result) : result;
}

/** The value of a backend that answered at once; throws if it answered with a promise. */
export function now<T>(value: Maybe<T>, what: string): T {
  if (value instanceof Promise) throw new Error(`${what} needs a store that answers at once (memory)`);
  return value;
}
