import type { Redactor } from '../../../../http/index.ts';
import type { Spec } from '../../../../spec/index.ts';
import { journalReader, type Kept, keptOf, type RequestJournal } from '../../request-journal.ts';
import { createBatch } from './pg-batch.ts';
import type { PgClient } from './pg-client.ts';

/**
 * The request journal in PostgreSQL: every replica's requests, read through any replica. Rows are
 * written in batches of a few milliseconds; a read writes this replica's pending rows first.
 */
export function pgJournal(
  db: PgClient,
  options: { spec: Spec; size: number; redactor: Redactor; basePath: string; log(line: string): void },
): RequestJournal & { flush(): Promise<void> } {
  const reader = journalReader(options.spec, options.redactor, options.basePath);
  const batch = createBatch<Kept>(async (rows) => {
    await db.query('journal-write', {
      text: `INSERT INTO pacu_journal (at_ms, client_id, doc)
        SELECT (e->>'atMs')::bigint, e->>'clientId', e FROM jsonb_array_elements($1::jsonb) AS e`,
      values: [JSON.stringify(rows)],
    });
  }, options.log);
  const entries = async (): Promise<Kept[]> => {
    await batch.flush();
    const rows = await db.query<{ doc: Kept }>('journal-read', {
      text: 'SELECT doc FROM (SELECT seq, doc FROM pacu_journal ORDER BY seq DESC LIMIT $1) last ORDER BY seq',
      values: [options.size],
    });
    return rows.map((row) => row.doc);
  };
  const record: RequestJournal['record'] = (event) => batch.add(keptOf(event));
  return {
    record,
    end: record,
    query: async (filter = {}) => reader.query(await entries(), filter),
    unmatched: async () => reader.unmatched(await entries()),
    async clear(clientId) {
      await batch.flush();
      await db.query('journal-clear', {
        text:
          clientId === undefined
            ? 'DELETE FROM pacu_journal'
            : 'DELETE FROM pacu_journal WHERE client_id = $1',
        values: clientId === undefined ? [] : [clientId],
      });
    },
    flush: () => batch.flush(),
  };
}
