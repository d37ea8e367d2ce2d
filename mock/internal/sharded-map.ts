/** What readers of a {@link ShardedMap} may do (the store hands these out read-only). */
export interface ReadonlyShardedMap<V> extends Iterable<[string, V]> {
  readonly size: number;
  get(key: string): V | undefined;
  has(key: string): boolean;
  keys(): IterableIterator<string>;
  values(): IterableIterator<V>;
  entries(): IterableIterator<[string, V]>;
}

const SHARDS = 256;

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
 * A string-keyed Map split into 256 Maps by a hash of the key. A JS Map grows by rehashing all of
 * its entries in one call: at 2^20 stored transfers, one insert held the event loop 166 ms for the
 * transfers and 240 ms for the references (decision 041), and every Map doubling stalls twice as
 * long as the last. Here each shard rehashes 1/256 of the entries, on its own insert. Iteration goes
 * shard by shard, not in insertion order (nothing that iterates these maps depends on the order).
 */
export class ShardedMap<V> implements ReadonlyShardedMap<V> {
  // Created on first use: a client with a handful of references keeps a handful of Maps.
  private readonly shards: Array<Map<string, V> | undefined> = new Array(SHARDS).fill(undefined);
  private count = 0;

  get size(): number {
    return this.count;
  }

  get(key: string): V | undefined {
    return this.shards[shardOf(key)]?.get(key);
  }

  has(key: string): boolean {
    return this.shards[shardOf(key)]?.has(key) ?? false;
  }

  set(key: string, value: V): this {
    const index = shardOf(key);
    let shard = this.shards[index];
    if (!shard) {
      shard = new Map();
      this.shards[index] = shard;
    }
    const before = shard.size;
    shard.set(key, value);
    this.count += shard.size - before;
    return this;
  }

  delete(key: string): boolean {
    const deleted = this.shards[shardOf(key)]?.delete(key) ?? false;
    if (deleted) this.count--;
    return deleted;
  }

  clear(): void {
    this.shards.fill(undefined);
    this.count = 0;
  }

  *entries(): IterableIterator<[string, V]> {
    for (const shard of this.shards) if (shard) yield* shard.entries();
  }

  *keys(): IterableIterator<string> {
    for (const shard of this.shards) if (shard) yield* shard.keys();
  }

  *values(): IterableIterator<V> {
    for (const shard of this.shards) if (shard) yield* shard.values();
  }

  [Symbol.iterator](): IterableIterator<[string, V]> {
    return this.entries();
  }
}
