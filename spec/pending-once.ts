/**
 * What `read` makes of `key`, made by the first caller and kept for the rest: a pure reading of a
 * spec object (an operation, a schema) that many requests ask for again.
 *
 * @example
 * const slots = new WeakMap<OperationSpec, IdSlot[]>();
 * readOnce(slots, operation, () => readSlots(operation));
 */
export function readOnce<K extends object, T>(cache: WeakMap<K, T>, key: K, read: () => T): T {
  let known = cache.get(key);
  if (known === undefined) {
    known = read();
    cache.set(key, known);
  }
  return known;
}

/** Where pending work is kept by key: a Map, or a WeakMap when the key is an object. */
export interface PendingCache<K, T> {
  get(key: K): Promise<T> | undefined;
  set(key: K, value: Promise<T>): unknown;
  delete(key: K): unknown;
}

/**
 * The work for `key`, started by the first caller and shared by the rest. Work that failed is
 * forgotten, so the next caller starts it again instead of inheriting the failure.
 *
 * @example
 * const specs = new Map<string, Promise<Spec>>();
 * pendingOnce(specs, file, () => readSpec(file));
 */
export function pendingOnce<K, T>(cache: PendingCache<K, T>, key: K, start: () => Promise<T>): Promise<T> {
  const known = cache.get(key);
  if (known) return known;
  const pending = start();
  cache.set(key, pending);
  pending.catch(() => cache.delete(key));
  return pending;
}
