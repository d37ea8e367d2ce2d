import type { WebhookReceiver } from '../../../types.ts';
import { MAX_CONNECTIONS_PER_RECEIVER, THROTTLE_STATUSES } from '../../webhook-lane.ts';
import type { PgClient, Statement } from './pg-client.ts';
import { CLUSTER_NOW } from './pg-config.ts';

// Each receiver's lane for the whole cluster (decision 188): how many deliveries it may have in
// flight at once, from every replica together. Standard Webhooks asks a sender to throttle a
// receiver that answers 429, 502 or 504; N replicas are one sender, so the limit is the receiver
// row's, halved on each such answer and given back one slot per run of successes, as in one mock.

/** A delivery a replica took, with what it needs to make it. */
export interface Claimed {
  event_id: string;
  receiver_id: string;
  attempt: number;
  event: { id: string; type: string; body: string; client_id: string | null } | null;
  receiver: WebhookReceiver | null;
}

/** A delivery that is due and nobody's (`of`: the table's alias). */
const due = (of = ''): string =>
  `${of}state = 'pending' AND ${of}due_at <= ${CLUSTER_NOW} AND (${of}lease_until IS NULL OR ${of}lease_until < now())`;

/**
 * Take up to `max` due deliveries, earliest first, leased for `leaseMs`, none past its receiver's
 * lane. One replica claims for a receiver at a time (its row locked, SKIP LOCKED for the others),
 * and counts the deliveries in flight after taking the lock, so no two replicas fill one lane.
 * Most polls find nothing due and cost one statement.
 */
export async function claimDeliveries(
  db: PgClient,
  now: number,
  max: number,
  leaseMs: number,
): Promise<Claimed[]> {
  const [probe] = await db.query<{ due: boolean }>('delivery-claim', {
    name: 'pacu-delivery-probe',
    text: `SELECT EXISTS (SELECT 1 FROM pacu_deliveries WHERE ${due()}) AS due`,
    values: [now],
  });
  if (!probe?.due) return [];
  return db.transaction('delivery-claim', async (query) => {
    const lanes = await query<{ id: string; lane_limit: number }>({
      name: 'pacu-delivery-lanes',
      text: `SELECT r.id, r.lane_limit FROM pacu_receivers r
        WHERE EXISTS (SELECT 1 FROM pacu_deliveries d WHERE d.receiver_id = r.id AND ${due('d.')})
        FOR UPDATE OF r SKIP LOCKED`,
      values: [now],
    });
    if (lanes.length === 0) return [];
    return query<Claimed>({
      name: 'pacu-delivery-claim',
      text: `WITH lane AS (SELECT * FROM unnest($4::text[], $5::int[]) AS l(id, lim)),
        busy AS (
          SELECT receiver_id, count(*) AS n FROM pacu_deliveries
          WHERE state = 'pending' AND lease_until >= now() AND receiver_id IN (SELECT id FROM lane) GROUP BY receiver_id
        ), due AS (
          SELECT event_id, receiver_id, due_at FROM pacu_deliveries
          WHERE ${due()} AND receiver_id IN (SELECT id FROM lane)
          ORDER BY due_at, event_id LIMIT $2 FOR UPDATE SKIP LOCKED
        ), chosen AS (
          SELECT ranked.event_id, ranked.receiver_id FROM (
            SELECT due.*, row_number() OVER (PARTITION BY receiver_id ORDER BY due_at, event_id) AS n FROM due
          ) ranked JOIN lane ON lane.id = ranked.receiver_id
          LEFT JOIN busy ON busy.receiver_id = ranked.receiver_id
          WHERE ranked.n <= lane.lim - COALESCE(busy.n, 0)
        )
        UPDATE pacu_deliveries d SET lease_until = now() + make_interval(secs => $3::double precision / 1000)
        FROM chosen c WHERE d.event_id = c.event_id AND d.receiver_id = c.receiver_id
        RETURNING d.event_id, d.receiver_id, d.attempt,
          (SELECT row_to_json(e) FROM (SELECT id, type, body, client_id FROM pacu_events WHERE id = d.event_id) e) AS event,
          (SELECT doc FROM pacu_receivers WHERE id = d.receiver_id) AS receiver`,
      values: [now, max, leaseMs, lanes.map((lane) => lane.id), lanes.map((lane) => lane.lane_limit)],
    });
  });
}

/**
 * What an answer does to its receiver's lane, in the transaction that records it: a 429, 502 or
 * 504 halves it (down to one at a time); a success counts towards a slot back while it is below
 * the most. At full width a success writes nothing.
 */
export function laneAfter(
  receiverId: string,
  status: number | undefined,
  delivered: boolean,
): Statement | undefined {
  if (status !== undefined && THROTTLE_STATUSES.has(status))
    return {
      text: 'UPDATE pacu_receivers SET lane_limit = GREATEST(1, lane_limit / 2), lane_successes = 0 WHERE id = $1',
      values: [receiverId],
    };
  if (!delivered) return undefined;
  return {
    text: `UPDATE pacu_receivers SET
        lane_limit = CASE WHEN lane_successes + 1 >= lane_limit THEN lane_limit + 1 ELSE lane_limit END,
        lane_successes = CASE WHEN lane_successes + 1 >= lane_limit THEN 0 ELSE lane_successes + 1 END
      WHERE id = $1 AND lane_limit < $2`,
    values: [receiverId, MAX_CONNECTIONS_PER_RECEIVER],
  };
}
