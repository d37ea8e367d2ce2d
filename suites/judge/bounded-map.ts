import { LRUCache } from 'lru-cache';

/**
 * A memory of at most `max` entries that forgets the least recently used first, for every watcher
 * of endless traffic. Not a Map used as a queue: V8 leaves deleted entries at the front of its table
 * and each `keys().next()` walks past them (docs/decisions/101, `bench/bounded-memory.ts`).
 */
export const boundedMemory = <K extends {}, V extends {}>(max: number): LRUCache<K, V> =>
  new LRUCache<K, V>({ max });

/** A memory that keeps at most a number of entries: see {@link boundedQueue}. */
export interface BoundedQueue<K, V> {
  get(key: K): V | undefined;
  /** Remember a new key (the oldest is forgotten once full), or give a known one a new value. */
  set(key: K, value: V): void;
  /** The value remembered for `key`; when there is none, `value` is remembered (as `set` would). */
  getOrRemember(key: K, value: V): V | undefined;
  readonly size: number;
}

/**
 * A memory of at most `max` entries that forgets the first remembered first, for a watcher that
 * remembers each key once and reads it rarely (the exchange state's references and tokens): a Map
 * and a ring of its keys, so the oldest is read from the ring, never found by `keys().next()`,
 * and a read moves nothing (an LRU's bookkeeping cost a third of each new reference).
 */
export function boundedQueue<K, V>(max: number): BoundedQueue<K, V> {
  const entries = new Map<K, V>();
  const order: K[] = [];
  let next = 0;
  const remember = (key: K, value: V): void => {
    if (order.length < max) order.push(key);
    else {
      entries.delete(order[next] as K);
      order[next] = key;
      next = next + 1 === max ? 0 : next + 1;
    }
    entries.set(key, value);
  };
  return {
    get: (key) => entries.get(key),
    set(key, value) {
      if (entries.has(key)) entries.set(key, value);
      else remember(key, value);
    },
    getOrRemember(key, value) {
      const before = entries.get(key);
      if (before === undefined) remember(key, value);
      return before;
    },
    get size() {
      return entries.size;
    },
  };
}
