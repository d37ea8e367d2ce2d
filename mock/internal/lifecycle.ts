import type { PaymentKind, Scenario } from '../types.ts';
import { type PaymentFacts, stepsFor } from './scenario-match.ts';
import type { Lifecycle, StoredPayout, StoredPushToCard, StoredTransfer } from './state.ts';
import { isoTimestamp } from './time.ts';

export type StoredPayment = StoredTransfer | StoredPayout | StoredPushToCard;

/** The steps of the scenario rule a new payment matches, at absolute times from `created`; none: it stays processing. */
export function lifecycleFor(
  scenario: Scenario,
  facts: PaymentFacts,
  created: number,
): Lifecycle | undefined {
  const steps = stepsFor(scenario, facts);
  if (steps.length === 0) return undefined;
  return {
    steps: steps.map((step) => ({ at: created + Math.round(step.after * 1000), status: step.status })),
    next: 0,
  };
}

/**
 * A step's event body, written out only when it is sent or read (most mocks have no receiver): the
 * record as it stood at the step. A record changes nothing but its status once stored, so the
 * record and the step's status say it all.
 */
class StepPayload {
  constructor(
    private readonly type: string,
    private readonly at: number,
    private readonly record: StoredPayment['record'],
    private readonly status: string,
  ) {}

  toJSON(): unknown {
    return {
      type: this.type,
      timestamp: isoTimestamp(this.at),
      data: { ...this.record, transaction_status: this.status },
    };
  }
}

/** The webhook event of a payment's step: its type, body (as JSON.stringify writes it) and owner. */
export function stepEvent(
  kind: PaymentKind,
  payment: StoredPayment,
  status: string,
  at: number,
): { type: string; payload: unknown; clientId: string | undefined } {
  const type = `${kind}.${status}`;
  return {
    type,
    payload: new StepPayload(type, at, payment.record, status),
    clientId: 'clientId' in payment ? payment.clientId : undefined,
  };
}
