import type { PaymentKind } from '../../types.ts';
import type { DueTask, MockClock } from '../clock.ts';
import { nextStep, type StoredPayment, stepEvent } from '../lifecycle.ts';
import type { MockStore } from './mock-store.ts';

/** Lifecycles on one process's clock: the memory and file stores' due work. */
export interface MemoryLifecycles {
  /** Put the next step of a payment on the clock (a new payment, or one loaded). */
  arm(kind: PaymentKind, payment: StoredPayment): void;
  /** Re-arm every pending lifecycle of the current state (after a load or a restart). */
  armAll(): void;
}

export function createMemoryLifecycles(deps: {
  maps: MockStore;
  clock: MockClock;
  emit(type: string, payload: unknown, clientId: string | undefined): void;
}): MemoryLifecycles {
  const { maps, clock } = deps;
  const runStep = (kind: PaymentKind, id: string, at: number): void => {
    // Looked up again: a reset or a state load may have replaced the payment since scheduling.
    const payment = maps.payment(kind, id);
    const step = nextStep(payment?.lifecycle);
    if (!payment || !step || step.at !== at) return;
    maps.applyStep(kind, payment, step.status);
    arm(kind, payment);
    const event = stepEvent(kind, payment, step.status, at);
    deps.emit(event.type, event.payload, event.clientId);
  };
  // One shared runner per kind, keyed by payment id: a closure per payment was heap the collector walked.
  const runners: Record<PaymentKind, DueTask> = {
    usd_transfer: (at, id) => runStep('usd_transfer', id, at),
    wallet_payout: (at, id) => runStep('wallet_payout', id, at),
    push_to_card: (at, id) => runStep('push_to_card', id, at),
  };
  const arm = (kind: PaymentKind, payment: StoredPayment): void => {
    const step = nextStep(payment.lifecycle);
    if (step) clock.schedule(step.at, runners[kind], payment.record.transaction_id);
  };
  return {
    arm,
    armAll() {
      const { transfers, payouts, pushToCard } = maps.view;
      for (const payment of transfers.values()) arm('usd_transfer', payment);
      for (const payment of payouts.values()) arm('wallet_payout', payment);
      for (const payment of pushToCard.values()) arm('push_to_card', payment);
    },
  };
}
