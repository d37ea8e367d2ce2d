import type { Kept } from '../../request-journal.ts';
import { createBatch } from './pg-batch.ts';
import type { PgClient } from './pg-client.ts';

/** A coverage count's key in pacu_coverage: `status op code`, `emitted type`, `delivered type`, `fault op kind`. */
export type CoverageKey =
  | `status ${string}`
  | `emitted ${string}`
  | `delivered ${string}`
  | `fault ${string}`;

/** What a replica's answers leave behind for the cluster: journal rows and coverage counts. */
export interface Traffic {
  journal(row: Kept): void;
  count(key: CoverageKey): void;
  /** Write what is pending now; rejects if it could not be written. */
  flush(): Promise<void>;
}

type Item = Kept | CoverageKey;

/**
 * The journal rows and coverage counts of a replica's answers, batched off the answer's path and
 * written together, one statement a batch: an insert per answer would be a second round trip on
 * every read. Reads of either make every replica write its batch first (pg-listener.ts).
 */
export function createTraffic(db: PgClient, log: (line: string) => void): Traffic {
  const batch = createBatch<Item>(async (items) => {
    const rows: Kept[] = [];
    const counts = new Map<string, number>();
    for (const item of items)
      if (typeof item === 'string') counts.set(item, (counts.get(item) ?? 0) + 1);
      else rows.push(item);
    // The batch's journal entries are one row: the table grows by a row a batch, not one an answer.
    await db.query('traffic-write', {
      name: 'pacu-traffic-write',
      text: `WITH j AS (
          INSERT INTO pacu_journal (entries, clients, doc) SELECT $1::int, $2::text[], $3::json WHERE $1::int > 0
        ), c AS (
          INSERT INTO pacu_coverage (key, count) SELECT * FROM unnest($4::text[], $5::bigint[])
          ON CONFLICT (key) DO UPDATE SET count = pacu_coverage.count + EXCLUDED.count
        ) SELECT 1`,
      values: [
        rows.length,
        [...new Set(rows.flatMap((row) => (row.clientId === null ? [] : [row.clientId])))],
        JSON.stringify(rows),
        [...counts.keys()],
        [...counts.values()],
      ],
    });
  }, log);
  return { journal: (row) => batch.add(row), count: (key) => batch.add(key), flush: () => batch.flush() };
}
