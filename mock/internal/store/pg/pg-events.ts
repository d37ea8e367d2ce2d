import { newId } from '../../random.ts';
import type { Statement } from './pg-client.ts';

/**
 * An event and its deliveries (one per active receiver it is for), made in one statement: inside
 * the transaction of the step that caused it, so the step and its webhook happen once, and the
 * webhook keeps the id it is given here whoever delivers it.
 */
export function emitStatement(
  type: string,
  payload: unknown,
  clientId: string | undefined,
  mockNow: number,
): { id: string; statement: Statement } {
  const id = newId('msg');
  return {
    id,
    statement: {
      name: 'pacu-emit',
      text: `WITH e AS (
        INSERT INTO pacu_events (id, type, client_id, body, created_at) VALUES ($1, $2, $3, $4, $5) RETURNING id, client_id
      ), d AS (
        INSERT INTO pacu_deliveries (event_id, receiver_id, attempt, due_at, state)
        SELECT e.id, r.id, 1, $5, 'pending' FROM e, pacu_receivers r
        WHERE r.doc->>'disabledAt' IS NULL AND (r.client_id IS NULL OR r.client_id = e.client_id)
      ), c AS (
        INSERT INTO pacu_coverage (key, count) VALUES ('emitted ' || $2, 1)
        ON CONFLICT (key) DO UPDATE SET count = pacu_coverage.count + 1
      )
      SELECT id FROM e`,
      values: [id, type, clientId ?? null, JSON.stringify(payload), mockNow],
    },
  };
}
