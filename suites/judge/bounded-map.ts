import { LRUCache } from 'lru-cache';

/**
 * A memory of at most `max` entries that forgets the least recently used first: the memory of
 * every watcher of endless traffic (the exchange state, the proxy's remembered answers) is bounded
 * so. Not a Map used as a queue (delete its first key, set the new one): V8 leaves deleted entries
 * at the front of a Map's table until it rehashes, and each `keys().next()` walks past them; at
 * 100,000 references remembered that cost 10 to 80 us per transfer a proxy forwarded
 * (`npx tsx bench/bounded-memory.ts`).
 */
export const boundedMemory = <K extends {}, V extends {}>(max: number): LRUCache<K, V> =>
  new LRUCache<K, V>({ max });
