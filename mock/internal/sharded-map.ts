/** What readers of a {@link ShardedMap} may do (the store hands these out read-only). */
export interface ReadonlyShardedMap<V> extends Iterable<[string, V]> {
  readonly size: number;
  get(key: string): V | undefined;
  has(key: string): boolean;
  keys(): IterableIterator<string>;
  values(): IterableIterator<V>;
  entries(): IterableIterator<[string, V]>;
}

/** Keys the first Map takes before new keys go to the shards. */
const BASE_CAPACITY = 2 ** 17;
const SHARDS = 64;

/** FNV-1a over the key's UTF-16 code units, folded to a shard index. */
function shardOf(key: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < key.length; index++) {
    hash ^= key.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash ^ (hash >>> 16)) & (SHARDS - 1);
}

/**
 * A string-keyed Map that never rehashes more than a slice of its entries at once: a JS Map rehashes
 * all of them in one insert, which held the event loop at 2^20 transfers (decision 041). The first
 * 2^17 keys stay in one Map (a young store pays nothing); later ones go to 64 shards by hash.
 * Iteration is not insertion order; nothing that iterates the store depends on it.
 */
export class ShardedMap<V> implements ReadonlyShardedMap<V> {
  private readonly base = new Map<string, V>();
  private shards: Array<Map<string, V>> | undefined;

  /** `baseCapacity`: how many keys the first Map takes (tests make it small). */
  constructor(private readonly baseCapacity = BASE_CAPACITY) {}

  get size(): number {
    let size = this.base.size;
    for (const shard of this.shards ?? []) size += shard.size;
    return size;
  }

  get(key: string): V | undefined {
    const found = this.base.get(key);
    if (found !== undefined || !this.shards) return found;
    return this.shards[shardOf(key)]?.get(key);
  }

  has(key: string): boolean {
    return this.base.has(key) || (this.shards?.[shardOf(key)]?.has(key) ?? false);
  }

  set(key: string, value: V): this {
    // A young store (no shards yet, room left) costs one Map.set, as a plain Map would.
    const inBase = this.shards
      ? this.base.has(key)
      : this.base.size < this.baseCapacity || this.base.has(key);
    if (inBase) {
      this.base.set(key, value);
      return this;
    }
    this.shards ??= Array.from({ length: SHARDS }, () => new Map<string, V>());
    (this.shards[shardOf(key)] as Map<string, V>).set(key, value);
    return this;
  }

  delete(key: string): boolean {
    return this.base.delete(key) || (this.shards?.[shardOf(key)]?.delete(key) ?? false);
  }

  clear(): void {
    this.base.clear();
    this.shards = undefined;
  }

  *entries(): IterableIterator<[string, V]> {
    yield* this.base.entries();
    for (const shard of this.shards ?? []) yield* shard.entries();
  }

  *keys(): IterableIterator<string> {
    for (const [key] of this.entries()) yield key;
  }

  *values(): IterableIterator<V> {
    for (const [, value] of this.entries()) yield value;
  }

  [Symbol.iterator](): IterableIterator<[string, V]> {
    return this.entries();
  }
}
