import { LRUCache } from 'lru-cache';

/**
 * A memory of at most `max` entries that forgets the least recently used first, for every watcher
 * of endless traffic. Not a Map used as a queue: V8 leaves deleted entries at the front of its table
 * and each `keys().next()` walks past them (docs/decisions/101, `bench/bounded-memory.ts`).
 */
export const boundedMemory = <K extends {}, V extends {}>(max: number): LRUCache<K, V> =>
  new LRUCache<K, V>({ max });
