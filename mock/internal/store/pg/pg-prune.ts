import type { Retention } from '../retention.ts';
import type { PgClient } from './pg-client.ts';
import { bumpVersion } from './pg-config.ts';
import { JOURNAL_BATCHES } from './pg-journal.ts';

/** One replica prunes at a time: the others find this lock taken and skip their turn. */
const PRUNE_LOCK = 7_316_100_036;

const RECORD_TABLES = ['pacu_transfers', 'pacu_payouts', 'pacu_push_to_card', 'pacu_accounts'] as const;

/**
 * Forget what is past retention, for the cluster: records clients made older than `retention.ms`
 * of mock time beyond the newest `retention.records` of each kind (seeded and loaded ones carry no
 * time and stay), expired tokens, journal rows past the journal's size, old webhook history.
 */
export async function pruneDatabase(
  db: PgClient,
  retention: Retention,
  journalSize: number,
  now: number,
): Promise<number> {
  return db.transaction('prune', async (query) => {
    const [lock] = await query<{ taken: boolean }>({
      text: 'SELECT pg_try_advisory_xact_lock($1) AS taken',
      values: [PRUNE_LOCK],
    });
    if (!lock?.taken) return 0;
    let removed = 0;
    if (Number.isFinite(retention.ms))
      for (const table of RECORD_TABLES) {
        const rows = await query({
          // The newest `records`th bounds what may go: with fewer rows than that, nothing does.
          text: `DELETE FROM ${table} WHERE created_at < $1 AND created_at < (
            SELECT created_at FROM ${table} WHERE created_at IS NOT NULL ORDER BY created_at DESC OFFSET $2 LIMIT 1)
            RETURNING 1`,
          values: [now - retention.ms, Math.max(0, retention.records - 1)],
        });
        removed += rows.length;
        // Replicas keep accounts by the config version (pg-cached-read.ts): a forgotten one moves it.
        if (table === 'pacu_accounts' && rows.length > 0) await query(bumpVersion);
      }
    const tidy = [
      { text: 'DELETE FROM pacu_tokens WHERE expires_at <= $1 RETURNING 1', values: [now] },
      {
        // A batch goes once the newer batches hold the journal's size.
        text: `DELETE FROM pacu_journal WHERE seq IN (SELECT seq FROM ${JOURNAL_BATCHES} WHERE newer >= $1) RETURNING 1`,
        values: [journalSize],
      },
      { text: 'DELETE FROM pacu_events WHERE seq <= (SELECT max(seq) FROM pacu_events) - 1000 RETURNING 1' },
      {
        text: 'DELETE FROM pacu_attempts WHERE seq <= (SELECT max(seq) FROM pacu_attempts) - 10000 RETURNING 1',
      },
      {
        text: `DELETE FROM pacu_deliveries d WHERE state <> 'pending'
          AND NOT EXISTS (SELECT 1 FROM pacu_events e WHERE e.id = d.event_id) RETURNING 1`,
      },
    ];
    for (const statement of tidy) removed += (await query(statement)).length;
    return removed;
  });
}
