/** How much a store keeps: records younger than `ms` of mock time, and at least the newest `records` of each kind. */
export interface Retention {
  ms: number;
  records: number;
}

/** What a memory store prunes: the collections clients grow (seeded records are never pruned). */
export type RetainedKind = 'transfers' | 'payouts' | 'pushToCard' | 'accounts';

/** How often a store looks for records past retention, in wall time. */
export const PRUNE_EVERY_MS = 5000;
/** Removals per look: a long-idle store catches up over several looks instead of one long stall. */
export const PRUNE_BUDGET = 50_000;

/**
 * Each kind's records in the order they were made, with the mock time they were made at: the
 * oldest are at the front, so pruning pops until it meets one to keep. Times sit unboxed in a
 * Float64Array (one entry per stored record; an object each was heap the collector walked).
 */
export class RetentionQueue {
  private ats = new Float64Array(1024);
  private ids: string[] = [];
  private head = 0;
  private tail = 0;

  get size(): number {
    return this.tail - this.head;
  }

  push(id: string, at: number): void {
    if (this.tail === this.ats.length) this.compact();
    this.ats[this.tail] = at;
    this.ids[this.tail] = id;
    this.tail++;
  }

  /** Remove (via `remove`) records made before `cutoff` while more than `keep` remain; how many went. */
  prune(cutoff: number, keep: number, budget: number, remove: (id: string) => void): number {
    let removed = 0;
    while (removed < budget && this.size > keep && (this.ats[this.head] as number) < cutoff) {
      remove(this.ids[this.head] as string);
      this.ids[this.head] = '';
      this.head++;
      removed++;
    }
    return removed;
  }

  clear(): void {
    this.head = this.tail = 0;
    this.ids = [];
  }

  /** Move the live entries to the front, growing the arrays when they are more than half full. */
  private compact(): void {
    const live = this.size;
    if (live * 2 > this.ats.length) {
      const ats = new Float64Array(this.ats.length * 2);
      ats.set(this.ats.subarray(this.head, this.tail));
      this.ats = ats;
    } else this.ats.copyWithin(0, this.head, this.tail);
    this.ids = this.ids.slice(this.head, this.tail);
    this.head = 0;
    this.tail = live;
  }
}

/** When a loaded record was made: its transaction date on the mock clock, or `fallback` when it has none readable. */
export function madeAt(record: { transaction_date?: unknown } | undefined, fallback: number): number {
  const parsed =
    typeof record?.transaction_date === 'string' ? Date.parse(record.transaction_date) : Number.NaN;
  return Number.isNaN(parsed) ? fallback : parsed;
}
