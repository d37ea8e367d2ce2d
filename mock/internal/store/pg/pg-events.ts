import { newId } from '../../random.ts';
import type { Statement } from './pg-client.ts';

/** A webhook event as the outbox stores it: its id is the `webhook-id` every delivery of it carries. */
export interface OutboxEvent {
  id: string;
  type: string;
  body: string;
  client_id: string | null;
  /** Mock time it was made (its deliveries are due then). */
  at: number;
}

export function outboxEvent(
  type: string,
  payload: unknown,
  clientId: string | undefined,
  at: number,
): OutboxEvent {
  return { id: newId('msg'), type, body: JSON.stringify(payload), client_id: clientId ?? null, at };
}

/** The rows of a JSON array of {@link OutboxEvent}s, in the order given (a CTE's body). */
export const eventRows = (param: string): string =>
  `SELECT * FROM ROWS FROM (jsonb_to_recordset(${param}::jsonb) AS (id text, type text, body text, client_id text, at bigint))
    WITH ORDINALITY AS x(id, type, body, client_id, at, ord)`;

/**
 * CTEs that put the events of `source` (a CTE of {@link eventRows}' columns) in the outbox: the
 * events in order, one delivery per active receiver each is for, and their coverage. Written in
 * the statement that makes them, so a step or a first p2p read and its webhook are one write, and
 * the webhook keeps the id it is given here whoever delivers it.
 */
export const outboxCtes = (source: string): string => `ev_made AS (
    INSERT INTO pacu_events (id, type, client_id, body, created_at)
    SELECT id, type, client_id, body, at FROM ${source} ORDER BY at, ord RETURNING id, client_id, created_at
  ), ev_sent AS (
    INSERT INTO pacu_deliveries (event_id, receiver_id, attempt, due_at, state)
    SELECT e.id, r.id, 1, e.created_at, 'pending' FROM ev_made e, pacu_receivers r
    WHERE r.doc->>'disabledAt' IS NULL AND (r.client_id IS NULL OR r.client_id = e.client_id)
  ), ev_counted AS (
    INSERT INTO pacu_coverage (key, count) SELECT 'emitted ' || type, count(*) FROM ${source} GROUP BY type
    ON CONFLICT (key) DO UPDATE SET count = pacu_coverage.count + EXCLUDED.count
  )`;

/** One event and its deliveries, in one statement. */
export function emitStatement(event: OutboxEvent): Statement {
  return {
    name: 'pacu-emit',
    text: `WITH events AS (${eventRows('$1')}), ${outboxCtes('events')} SELECT count(*) AS made FROM events`,
    values: [JSON.stringify([event])],
  };
}
