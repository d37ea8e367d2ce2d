import type { PaymentKind } from '../../../types.ts';
import { type StoredPayment, stepEvent } from '../../lifecycle.ts';
import type { TransactionQuery } from './pg-client.ts';
import { CLUSTER_NOW } from './pg-config.ts';
import { eventRows, type OutboxEvent, outboxCtes, outboxEvent } from './pg-events.ts';
import { nextDue } from './pg-records.ts';

/** Due rows one transaction takes: each step is a few rows of one statement, not a transaction. */
export const STEP_BATCH = 200;

interface Claimed {
  kind: PaymentKind;
  payment_id: string;
  at: string;
  doc: StoredPayment | null;
  up_to: string;
}

const claimSql = (
  lock: string,
): string => `SELECT d.kind, d.payment_id, d.at, COALESCE(t.doc, p.doc, c.doc) AS doc, d.up_to
  FROM (SELECT kind, payment_id, at, ${CLUSTER_NOW} AS up_to FROM pacu_due
        WHERE at <= ${CLUSTER_NOW} AND ($3::bigint IS NULL OR seq <= $3)
        ORDER BY at, payment_id LIMIT $2 ${lock}) d
  LEFT JOIN pacu_transfers t ON d.kind = 'usd_transfer' AND t.transaction_id = d.payment_id
  LEFT JOIN pacu_payouts p ON d.kind = 'wallet_payout' AND p.transaction_id = d.payment_id
  LEFT JOIN pacu_push_to_card c ON d.kind = 'push_to_card' AND c.transaction_id = d.payment_id
  ORDER BY d.at, d.payment_id`;

/** Every payment's new document and next due time, and the events of its steps, in one statement. */
const APPLY = `WITH s AS (
    SELECT * FROM jsonb_to_recordset($1::jsonb) AS s(kind text, id text, doc jsonb, next bigint)
  ), events AS (${eventRows('$2')}),
  moved_t AS (UPDATE pacu_transfers x SET doc = s.doc FROM s WHERE s.kind = 'usd_transfer' AND s.doc IS NOT NULL AND x.transaction_id = s.id),
  moved_p AS (UPDATE pacu_payouts x SET doc = s.doc FROM s WHERE s.kind = 'wallet_payout' AND s.doc IS NOT NULL AND x.transaction_id = s.id),
  moved_c AS (UPDATE pacu_push_to_card x SET doc = s.doc FROM s WHERE s.kind = 'push_to_card' AND s.doc IS NOT NULL AND x.transaction_id = s.id),
  done AS (DELETE FROM pacu_due d USING s WHERE d.kind = s.kind AND d.payment_id = s.id AND s.next IS NULL),
  later AS (UPDATE pacu_due d SET at = s.next FROM s WHERE d.kind = s.kind AND d.payment_id = s.id AND s.next IS NOT NULL),
  ${outboxCtes('events')}
  SELECT count(*) AS applied FROM s`;

export interface DueOptions {
  /** This replica's mock time: a manual clock another replica moved is the database's, never behind it. */
  upTo: number;
  /** Only due rows made up to this one (`pacu_due.seq`): a clock advance's own work. */
  horizon?: number;
  /** Wait for rows another replica holds (a clock advance must run them), instead of skipping them. */
  wait?: boolean;
}

/**
 * Take up to {@link STEP_BATCH} due steps that no other replica holds, earliest first (`FOR UPDATE
 * SKIP LOCKED`), apply each payment's steps due by then, move its due row on, and make a webhook
 * event per step (stamped with the step's own time), in the caller's transaction: two statements
 * for the batch. Returns how many due rows it took (fewer than the batch: nothing more is due).
 */
export async function runDueSteps(query: TransactionQuery, options: DueOptions): Promise<number> {
  const wait = options.wait === true;
  const claimed = await query<Claimed>({
    name: wait ? 'pacu-due-claim-wait' : 'pacu-due-claim',
    text: claimSql(wait ? 'FOR UPDATE OF pacu_due' : 'FOR UPDATE OF pacu_due SKIP LOCKED'),
    values: [options.upTo, STEP_BATCH, options.horizon ?? null],
  });
  if (claimed.length === 0) return 0;
  // A full batch stops at its last row's time: later steps of its payments wait for their turn.
  const last = claimed[claimed.length - 1] as Claimed;
  const bound = Number(claimed.length === STEP_BATCH ? last.at : last.up_to);
  const moves: Array<{ kind: PaymentKind; id: string; doc: StoredPayment | null; next: number | null }> = [];
  const events: OutboxEvent[] = [];
  for (const due of claimed) {
    const payment = due.doc;
    const lifecycle = payment?.lifecycle;
    // Only a step still due at the row's time runs (a reset or a retention may have changed the payment).
    const current = lifecycle?.steps[lifecycle.next]?.at === Number(due.at);
    if (payment && lifecycle && current) {
      for (
        let step = lifecycle.steps[lifecycle.next];
        step && step.at <= bound;
        step = lifecycle.steps[lifecycle.next]
      ) {
        payment.record.transaction_status = step.status;
        lifecycle.next++;
        const event = stepEvent(due.kind, payment, step.status, step.at);
        events.push(outboxEvent(event.type, event.payload, event.clientId, step.at));
      }
      if (lifecycle.next >= lifecycle.steps.length) delete payment.lifecycle;
    }
    moves.push({
      kind: due.kind,
      id: due.payment_id,
      doc: current ? payment : null,
      next: payment ? nextDue(payment) : null,
    });
  }
  // In time order across the batch, as one mock's clock runs them.
  events.sort((a, b) => a.at - b.at);
  await query({
    name: 'pacu-due-apply',
    text: APPLY,
    values: [JSON.stringify(moves), JSON.stringify(events)],
  });
  return claimed.length;
}
