import type { PaymentKind } from '../types.ts';
import type { DueTask } from './clock.ts';
import type { MockContext } from './context.ts';
import { type PaymentFacts, stepsFor } from './scenario-match.ts';
import type { Lifecycle, StoredPayout, StoredPushToCard, StoredTransfer } from './state.ts';
import { isoTimestamp } from './time.ts';

type StoredPayment = StoredTransfer | StoredPayout | StoredPushToCard;

function runStep(context: MockContext, kind: PaymentKind, id: string, at: number): void {
  // Looked up again: a reset or a state load may have replaced the payment since scheduling.
  const payment = context.store.payment(kind, id);
  const lifecycle = payment?.lifecycle;
  const step = lifecycle?.steps[lifecycle.next];
  if (!payment || !lifecycle || !step || step.at !== at) return;
  context.store.applyStep(kind, payment, step.status);
  scheduleLifecycle(context, kind, payment);
  context.webhooks.emit(
    `${kind}.${step.status}`,
    {
      type: `${kind}.${step.status}`,
      timestamp: isoTimestamp(at),
      data: { ...payment.record },
    },
    'clientId' in payment ? payment.clientId : undefined,
  );
}

/** One due-task runner per context and kind, shared by every payment's scheduled step. */
const runners = new WeakMap<MockContext, Record<PaymentKind, DueTask>>();

function runnerFor(context: MockContext, kind: PaymentKind): DueTask {
  let forContext = runners.get(context);
  if (!forContext) {
    const runnerOf =
      (of: PaymentKind): DueTask =>
      (at, id) =>
        runStep(context, of, id, at);
    forContext = {
      usd_transfer: runnerOf('usd_transfer'),
      wallet_payout: runnerOf('wallet_payout'),
      push_to_card: runnerOf('push_to_card'),
    };
    runners.set(context, forContext);
  }
  return forContext[kind];
}

/** Put the next step of a payment's lifecycle on the clock (also used after loading state). */
export function scheduleLifecycle(context: MockContext, kind: PaymentKind, payment: StoredPayment): void {
  const step = payment.lifecycle?.steps[payment.lifecycle.next];
  if (!step) return;
  context.clock.schedule(step.at, runnerFor(context, kind), payment.record.transaction_id);
}

/** Give a new payment the steps of the scenario rule it matches, and schedule the first. */
export function startLifecycle(context: MockContext, payment: StoredPayment, facts: PaymentFacts): void {
  const created = context.clock.now();
  const steps = stepsFor(context.scenario, facts);
  if (steps.length === 0) return;
  const lifecycle: Lifecycle = {
    steps: steps.map((step) => ({ at: created + Math.round(step.after * 1000), status: step.status })),
    next: 0,
  };
  payment.lifecycle = lifecycle;
  scheduleLifecycle(context, facts.kind, payment);
}

/** Re-arm every pending lifecycle of the current state (after a load or a restart). */
export function scheduleAllLifecycles(context: MockContext): void {
  const { transfers, payouts, pushToCard } = context.store.view;
  for (const payment of transfers.values()) scheduleLifecycle(context, 'usd_transfer', payment);
  for (const payment of payouts.values()) scheduleLifecycle(context, 'wallet_payout', payment);
  for (const payment of pushToCard.values()) scheduleLifecycle(context, 'push_to_card', payment);
}
