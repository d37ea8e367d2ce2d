import type { Redactor } from '../../../../http/index.ts';
import type { Spec } from '../../../../spec/index.ts';
import { journalReader, type Kept, keptOf, type RequestJournal } from '../../request-journal.ts';
import type { PgClient } from './pg-client.ts';
import type { Traffic } from './pg-traffic.ts';

/** The journal's batches (a row each), each with how many entries newer batches hold (`newer`). */
export const JOURNAL_BATCHES =
  '(SELECT seq, doc, sum(entries) OVER (ORDER BY seq DESC) - entries AS newer FROM pacu_journal) batches';

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
      // The newest entries by landing (a row is a replica's batch), shown in the order answered.
      text: `SELECT e AS doc FROM (
          SELECT r.seq, x.e, x.o FROM (
            SELECT seq, doc FROM ${JOURNAL_BATCHES} WHERE newer < $1
          ) r CROSS JOIN LATERAL json_array_elements(r.doc) WITH ORDINALITY AS x(e, o)
          ORDER BY r.seq DESC, x.o DESC LIMIT $1
        ) last ORDER BY (e->>'atMs')::float8, seq, o`,
      values: [options.size],
    });
    return rows.map((row) => row.doc);
  };
  const { redactor } = options;
  // Kept redacted by the replica that answered: another reads it with a redactor that never saw
  // this exchange, and nothing this one forgets later was left in it.
  const record: RequestJournal['record'] = (event) => {
    const entry = keptOf(event);
    traffic.journal({
      ...entry,
      path: redactor.redactText(entry.path),
      text: entry.text.length > 0 ? redactor.redactText(entry.text, entry.contentType) : entry.text,
    });
  };
  return {
    record,
    end: record,
    query: async (filter = {}) => reader.query(await entries(), filter),
    unmatched: async () => reader.unmatched(await entries()),
    async clear(clientId) {
      // What other replicas still hold would come back after the clear: theirs is written first.
      await everyone();
      if (clientId === undefined) {
        await db.query('journal-clear', { text: 'DELETE FROM pacu_journal' });
        return;
      }
      // A client's entries leave each batch that holds any; a batch left empty goes.
      await db.query('journal-clear', {
        text: `WITH kept AS (
            SELECT seq, (SELECT json_agg(e ORDER BY o) FROM json_array_elements(doc) WITH ORDINALITY AS x(e, o)
              WHERE e->>'clientId' IS DISTINCT FROM $1) AS doc
            FROM pacu_journal WHERE $1 = ANY (clients)
          ), gone AS (
            DELETE FROM pacu_journal j USING kept k WHERE j.seq = k.seq AND k.doc IS NULL
          )
          UPDATE pacu_journal j SET doc = k.doc, entries = json_array_length(k.doc), clients = array_remove(j.clients, $1)
          FROM kept k WHERE j.seq = k.seq AND k.doc IS NOT NULL`,
        values: [clientId],
      });
    },
  };
}
