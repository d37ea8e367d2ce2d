import { retryAfterMs, webhookHeaders } from '../../../../http/index.ts';
import type { DeliveryAttempt, WebhookEventRecord, WebhookReceiver, WebhookRetry } from '../../../types.ts';
import type { WebhookDispatcher } from '../../webhooks.ts';
import type { PgClient } from './pg-client.ts';
import { CLUSTER_NOW } from './pg-config.ts';
import { bumpCoverage } from './pg-coverage.ts';
import { emitStatement, outboxEvent } from './pg-events.ts';
import { type Claimed, claimDeliveries, laneAfter } from './pg-lanes.ts';

/** Deliveries one replica takes at once. */
const CLAIM = 16;
/** How long a claimed delivery is this replica's: past it, another replica takes it (same webhook id). */
export const leaseMs = (retry: WebhookRetry): number => retry.timeoutMs + 5000;

/**
 * The outbox in PostgreSQL: events and their deliveries are rows. Any replica claims due deliveries
 * with `FOR UPDATE SKIP LOCKED` and a lease, within each receiver's lane (pg-lanes.ts), posts them
 * signed with the event's own id, and records the attempt; one that dies mid-delivery is replaced
 * when its lease runs out.
 */
export function pgWebhooks(
  db: PgClient,
  deps: { retry: WebhookRetry; now(): number; log(line: string): void; kick(): void; manual: boolean },
): WebhookDispatcher & { deliverDue(): Promise<number> } {
  const { retry } = deps;
  let client: Promise<typeof import('undici')> | undefined;
  const inFlight = new Set<Promise<void>>();
  let closed = false;

  async function deliver(claimed: Claimed): Promise<void> {
    const leasedUntil = Date.now() + leaseMs(retry);
    const { event, receiver } = claimed;
    if (!event || !receiver || receiver.disabledAt) {
      await db.query('delivery-drop', {
        text: `UPDATE pacu_deliveries SET state = 'dropped', lease_until = NULL WHERE event_id = $1 AND receiver_id = $2`,
        values: [claimed.event_id, claimed.receiver_id],
      });
      return;
    }
    const attempt: DeliveryAttempt = {
      eventId: event.id,
      type: event.type,
      receiverId: receiver.id,
      url: receiver.url,
      attempt: claimed.attempt,
      outcome: 'failed',
      startedAt: new Date().toISOString(),
    };
    let after: number | undefined;
    try {
      client ??= import('undici');
      const { request } = await client;
      const response = await request(receiver.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'pacu-mock-webhooks',
          ...webhookHeaders(receiver.secret, event.id, Math.floor(Date.now() / 1000), event.body),
        },
        body: event.body,
        signal: AbortSignal.timeout(retry.timeoutMs),
      });
      await response.body.dump();
      attempt.status = response.statusCode;
      if (response.statusCode >= 200 && response.statusCode < 300) attempt.outcome = 'delivered';
      after = retryAfterMs(response.headers['retry-after']);
    } catch (error) {
      attempt.error =
        (error as Error).name === 'TimeoutError'
          ? `no answer within ${retry.timeoutMs} ms`
          : String((error as Error).message);
    }
    attempt.finishedAt = new Date().toISOString();
    // A receiver that answered is not asked again because the database was away for a moment:
    // the outcome is written once it is back, while the lease keeps the delivery this replica's.
    for (let wait = 100; ; wait = Math.min(wait * 2, 1000)) {
      try {
        await settle(claimed, receiver, attempt, after);
        return;
      } catch (error) {
        if (closed || Date.now() + wait >= leasedUntil - 1000) throw error;
        await new Promise((resolve) => setTimeout(resolve, wait));
      }
    }
  }

  async function settle(
    claimed: Claimed,
    receiver: WebhookReceiver,
    attempt: DeliveryAttempt,
    after?: number,
  ) {
    await db.transaction('delivery-settle', async (query) => {
      const where = [claimed.event_id, claimed.receiver_id, claimed.attempt];
      if (attempt.outcome === 'delivered') {
        await query({
          text: `UPDATE pacu_deliveries SET state = 'done', lease_until = NULL WHERE event_id = $1 AND receiver_id = $2 AND attempt = $3`,
          values: where,
        });
        await query(bumpCoverage(`delivered ${attempt.type}`));
      } else if (attempt.status === 410) {
        attempt.error = 'the receiver answered 410 Gone: it is disabled, nothing more is sent to it';
        const disabled = { ...receiver, disabledAt: new Date(deps.now()).toISOString() };
        await query({
          text: 'UPDATE pacu_receivers SET doc = $2 WHERE id = $1',
          values: [receiver.id, disabled],
        });
        await query({
          text: `UPDATE pacu_deliveries SET state = 'failed', lease_until = NULL WHERE event_id = $1 AND receiver_id = $2 AND attempt = $3`,
          values: where,
        });
      } else if (claimed.attempt <= retry.delaysMs.length) {
        const base = retry.delaysMs[claimed.attempt - 1] ?? 0;
        const jittered = Math.max(0, Math.round(base * (1 + retry.jitter * (Math.random() * 2 - 1))));
        const delay = Math.max(jittered, Math.min(after ?? 0, 24 * 3_600_000));
        const [row] = await query<{ due_at: string }>({
          text: `UPDATE pacu_deliveries SET attempt = attempt + 1, due_at = GREATEST($4::bigint, (SELECT now_ms FROM pacu_config)) + $5::bigint,
            lease_until = NULL WHERE event_id = $1 AND receiver_id = $2 AND attempt = $3 RETURNING due_at`,
          values: [...where, deps.now(), delay],
        });
        attempt.nextAttemptAt = new Date(Number(row?.due_at ?? deps.now() + delay)).toISOString();
      } else {
        deps.log(
          `webhook ${attempt.type} ${attempt.eventId} to ${receiver.url} failed after ${attempt.attempt} attempts`,
        );
        await query({
          text: `UPDATE pacu_deliveries SET state = 'failed', lease_until = NULL WHERE event_id = $1 AND receiver_id = $2 AND attempt = $3`,
          values: where,
        });
      }
      const lane = laneAfter(receiver.id, attempt.status, attempt.outcome === 'delivered');
      if (lane) await query(lane);
      await query({
        text: 'INSERT INTO pacu_attempts (event_id, doc) VALUES ($1, $2)',
        values: [attempt.eventId, attempt],
      });
    });
    // A slot in its receiver's lane is free again: the next due delivery may go now.
    deps.kick();
  }

  return {
    async deliverDue() {
      if (closed || inFlight.size >= CLAIM) return 0;
      const claimed = await claimDeliveries(db, deps.now(), CLAIM - inFlight.size, leaseMs(retry));
      for (const one of claimed) {
        const running: Promise<void> = deliver(one)
          .catch((error) =>
            deps.log(`pacu mock: a webhook delivery could not be recorded: ${(error as Error).message}`),
          )
          .finally(() => inFlight.delete(running));
        inFlight.add(running);
      }
      return claimed.length;
    },
    async emit(type, payload, clientId) {
      const event = outboxEvent(type, payload, clientId, deps.now());
      await db.query('emit', emitStatement(event));
      deps.kick();
      return event.id;
    },
    async redeliver(eventId) {
      const [row] = await db.query<{ found: string }>('redeliver', {
        text: `WITH e AS (SELECT id, client_id FROM pacu_events WHERE id = $1), d AS (
          INSERT INTO pacu_deliveries (event_id, receiver_id, attempt, due_at, state)
          SELECT e.id, r.id, 1, $2, 'pending' FROM e, pacu_receivers r
          WHERE r.doc->>'disabledAt' IS NULL AND (r.client_id IS NULL OR r.client_id = e.client_id)
          ON CONFLICT (event_id, receiver_id) DO UPDATE
            SET state = 'pending', attempt = pacu_deliveries.attempt + 1, due_at = EXCLUDED.due_at, lease_until = NULL
        ) SELECT count(*) AS found FROM e`,
        values: [eventId, deps.now()],
      });
      deps.kick();
      return Number(row?.found ?? 0) > 0;
    },
    async attempts() {
      const rows = await db.query<{ doc: DeliveryAttempt }>('attempts', {
        text: 'SELECT doc FROM (SELECT seq, doc FROM pacu_attempts ORDER BY seq DESC LIMIT 10000) a ORDER BY seq',
      });
      return rows.map((row) => row.doc);
    },
    async events() {
      const rows = await db.query<{ id: string; type: string; body: string; client_id: string | null }>(
        'events',
        {
          text: 'SELECT id, type, body, client_id FROM (SELECT * FROM pacu_events ORDER BY seq DESC LIMIT 1000) e ORDER BY seq',
        },
      );
      return rows.map(
        (row): WebhookEventRecord => ({
          id: row.id,
          type: row.type,
          body: row.body,
          ...(row.client_id === null ? {} : { clientId: row.client_id }),
        }),
      );
    },
    async clearHistory() {
      await db.query('clear-history', { text: 'TRUNCATE pacu_events, pacu_deliveries, pacu_attempts' });
    },
    async idle() {
      // Idle for the cluster: nothing pending (on a manual clock, retries waiting for it do not count).
      for (;;) {
        await Promise.allSettled([...inFlight]);
        const [row] = await db.query<{ pending: string }>('idle', {
          text: `SELECT count(*) AS pending FROM pacu_deliveries WHERE state = 'pending' AND due_at <= ${CLUSTER_NOW}`,
          values: [deps.manual ? deps.now() : Number.MAX_SAFE_INTEGER],
        });
        if (Number(row?.pending ?? 0) === 0 && inFlight.size === 0) return;
        deps.kick();
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    async close() {
      closed = true;
      await Promise.allSettled([...inFlight]);
    },
  };
}
