/**
 * Shares one copy of strings that repeat across stored records (enum values, client and account
 * ids, routing numbers, names). With a million transfers, each parsed from its own state-file line,
 * the copies alone cost ~80 MB; the pool is capped so unique values cannot grow it without bound.
 */
export class StringPool {
  private readonly strings = new Map<string, string>();

  constructor(private readonly capacity = 65_536) {}

  /** The pooled copy of `value`, or `value` itself once the pool is full. */
  share(value: string): string {
    const pooled = this.strings.get(value);
    if (pooled !== undefined) return pooled;
    if (this.strings.size < this.capacity) this.strings.set(value, value);
    return value;
  }

  get size(): number {
    return this.strings.size;
  }
}
