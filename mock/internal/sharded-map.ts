/** What readers of a {@link ShardedMap} may do (the store hands these out read-only). */
export interface ReadonlyShardedMap<V> extends Iterable<[string, V]> {
  readonly size: number;
  get(key: string): V | undefined;
  has(key: string): boolean;
  keys(): IterableIterator<string>;
  values(): IterableIterator<V>;
  entries(): IterableIterator<[string, V]>;
}

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
 * A string-keyed Map that never rehashes more than a 64th of its entries at once: a JS Map rehashes
 * all of them in one insert, which held the event loop at 2^20 transfers (decision 041). Each key
 * is in the one Map its hash names, from the first key: one probe a look-up (decision 204).
 * Iteration is not insertion order; nothing that iterates the store depends on it.
 */
export class ShardedMap<V> implements ReadonlyShardedMap<V> {
  /** Made on a shard's first key: a client's references in a small store need few of them. */
  private readonly shards: Array<Map<string, V> | undefined> = new Array(SHARDS).fill(undefined);

  get size(): number {
    let size = 0;
    for (const shard of this.shards) size += shard?.size ?? 0;
    return size;
  }

  get(key: string): V | undefined {
    return this.shards[shardOf(key)]?.get(key);
  }

  has(key: string): boolean {
    return this.shards[shardOf(key)]?.has(key) ?? false;
  }

  set(key: string, value: V): this {
    const at = shardOf(key);
    let shard = this.shards[at];
    if (!shard) {
      shard = new Map<string, V>();
      this.shards[at] = shard;
    }
    shard.set(key, value);
    return this;
  }

  delete(key: string): boolean {
    return this.shards[shardOf(key)]?.delete(key) ?? false;
  }

  clear(): void {
    this.shards.fill(undefined);
  }

  *entries(): IterableIterator<[string, V]> {
    for (const shard of this.shards) if (shard) yield* shard.entries();
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
