import type { Redactor } from '../../../../http/index.ts';
import type { Spec } from '../../../../spec/index.ts';
import { journalReader, type Kept, keptOf, type RequestJournal } from '../../request-journal.ts';
import type { PgClient } from './pg-client.ts';
import type { Traffic } from './pg-traffic.ts';

/**
 * The request journal in PostgreSQL: every replica's requests, read through any replica. Rows are
 * written in batches of a few milliseconds (pg-traffic.ts); a read or a clear first has every
 * replica write what it answered (`everyone()`), so it shows every request answered before it.
 */
export function pgJournal(
  db: PgClient,
  traffic: Traffic,
  everyone: () => Promise<void>,
  options: { spec: Spec; size: number; redactor: Redactor; basePath: string },
): RequestJournal {
  const reader = journalReader(options.spec, options.redactor, options.basePath);
  const entries = async (): Promise<Kept[]> => {
    await everyone();
    const rows = await db.query<{ doc: Kept }>('journal-read', {
      // Rows land in each replica's batches: the newest by landing, shown in the order answered.
      text: `SELECT doc FROM (SELECT seq, doc FROM pacu_journal ORDER BY seq DESC LIMIT $1) last
        ORDER BY (doc->>'atMs')::float8, seq`,
      values: [options.size],
    });
    return rows.map((row) => row.doc);
  };
  const record: RequestJournal['record'] = (event) => traffic.journal(keptOf(event));
  return {
    record,
    end: record,
    query: async (filter = {}) => reader.query(await entries(), filter),
    unmatched: async () => reader.unmatched(await entries()),
    async clear(clientId) {
      // What other replicas still hold would come back after the clear: theirs is written first.
      await everyone();
      await db.query('journal-clear', {
        text:
          clientId === undefined
            ? 'DELETE FROM pacu_journal'
            : 'DELETE FROM pacu_journal WHERE client_id = $1',
        values: clientId === undefined ? [] : [clientId],
      });
    },
  };
}
