import type { MockClock } from '../clock.ts';
import type { MockStore } from './mock-store.ts';
import {
  madeAt,
  PRUNE_BUDGET,
  PRUNE_EVERY_MS,
  type RetainedKind,
  type Retention,
  RetentionQueue,
} from './retention.ts';

const KINDS: readonly RetainedKind[] = ['transfers', 'payouts', 'pushToCard', 'accounts'];

/** Retention of the memory and file stores: what clients made, forgotten past `retention` (journaled). */
export interface MemoryRetention {
  made(kind: RetainedKind, id: string): void;
  /** The state was replaced (reset, load, start): its records queued again, oldest first. */
  rebuild(): void;
  prune(): number;
  stop(): void;
}

export function createMemoryRetention(
  maps: MockStore,
  clock: MockClock,
  retention: Retention,
): MemoryRetention {
  const queues = Object.fromEntries(KINDS.map((kind) => [kind, new RetentionQueue()])) as Record<
    RetainedKind,
    RetentionQueue
  >;
  const prune = (): number => {
    if (!Number.isFinite(retention.ms)) return 0;
    const cutoff = clock.now() - retention.ms;
    let removed = 0;
    for (const kind of KINDS)
      removed += queues[kind].prune(cutoff, retention.records, PRUNE_BUDGET - removed, (id) =>
        maps.removeRecord(kind, id),
      );
    return removed;
  };
  const timer = Number.isFinite(retention.ms) ? setInterval(prune, PRUNE_EVERY_MS) : undefined;
  timer?.unref();
  return {
    made(kind, id) {
      if (timer) queues[kind].push(id, clock.now());
    },
    rebuild() {
      if (!timer) return;
      const now = clock.now();
      const { view } = maps;
      const seeded = new Set([view.seeded.pushToCardId, view.seeded.merchantAccountId]);
      const entries: Record<RetainedKind, Array<[number, string]>> = {
        transfers: [...view.transfers.values()].map((item) => [
          madeAt(item.record, now),
          item.record.transaction_id,
        ]),
        payouts: [...view.payouts.values()].map((item) => [
          madeAt(item.record, now),
          item.record.transaction_id,
        ]),
        pushToCard: [...view.pushToCard.values()].map((item) => [
          madeAt(item.record, now),
          item.record.transaction_id,
        ]),
        // Accounts carry no date: a loaded one counts as made now. Seeded ones belong to everyone and stay.
        accounts: [...view.accounts.values()]
          .filter((item) => item.clientId !== undefined)
          .map((item) => [now, item.record.account_id]),
      };
      for (const kind of KINDS) {
        queues[kind].clear();
        for (const [at, id] of entries[kind].sort((a, b) => a[0] - b[0]))
          if (!seeded.has(id)) queues[kind].push(id, at);
      }
    },
    prune,
    stop: () => clearInterval(timer),
  };
}
