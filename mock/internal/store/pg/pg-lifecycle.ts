import type { PaymentKind } from '../../../types.ts';
import { type StoredPayment, stepEvent } from '../../lifecycle.ts';
import type { TransactionQuery } from './pg-client.ts';
import { CLUSTER_NOW } from './pg-config.ts';
import { emitStatement } from './pg-events.ts';
import { nextDue, PAYMENT_TABLES } from './pg-records.ts';

/**
 * Take the earliest step due by `upTo` that no other replica holds (`FOR UPDATE SKIP LOCKED`), apply
 * it, move the payment's due row to its next step and make its webhook event, all in the caller's
 * transaction. False when nothing is due. `at` is told the step's time before it runs.
 */
export async function runOneStep(
  query: TransactionQuery,
  upTo: number,
  at: (time: number) => Promise<void> | void = () => {},
): Promise<boolean> {
  const [due] = await query<{ kind: PaymentKind; payment_id: string; at: string }>({
    name: 'pacu-due-claim',
    // A manual clock another replica moved is the database's: never behind it.
    text: `SELECT kind, payment_id, at FROM pacu_due WHERE at <= ${CLUSTER_NOW}
      ORDER BY at, payment_id LIMIT 1 FOR UPDATE SKIP LOCKED`,
    values: [upTo],
  });
  if (!due) return false;
  const kind = due.kind;
  const table = PAYMENT_TABLES[kind];
  const [row] = await query<{ doc: StoredPayment }>({
    text: `SELECT doc FROM ${table} WHERE transaction_id = $1 FOR UPDATE`,
    values: [due.payment_id],
  });
  const payment = row?.doc;
  const lifecycle = payment?.lifecycle;
  const step = lifecycle?.steps[lifecycle.next];
  const stepAt = Number(due.at);
  if (payment && lifecycle && step && step.at === stepAt) {
    await at(stepAt);
    payment.record.transaction_status = step.status;
    lifecycle.next++;
    if (lifecycle.next >= lifecycle.steps.length) delete payment.lifecycle;
    await query({
      text: `UPDATE ${table} SET doc = $2 WHERE transaction_id = $1`,
      values: [due.payment_id, payment],
    });
    const event = stepEvent(kind, payment, step.status, stepAt);
    await query(emitStatement(event.type, event.payload, event.clientId, stepAt).statement);
  }
  const next = payment ? nextDue(payment) : null;
  await query(
    next === null
      ? { text: 'DELETE FROM pacu_due WHERE kind = $1 AND payment_id = $2', values: [kind, due.payment_id] }
      : {
          text: 'UPDATE pacu_due SET at = $3 WHERE kind = $1 AND payment_id = $2',
          values: [kind, due.payment_id, next],
        },
  );
  return true;
}
