import type { FinalStatus, PaymentKind, Scenario, ScenarioStep } from '../types.ts';
import { type PaymentFacts, stepsFor } from './scenario-match.ts';
import type { Lifecycle, LifecycleStep, StoredPayout, StoredPushToCard, StoredTransfer } from './state.ts';
import { isoTimestamp } from './time.ts';

export type StoredPayment = StoredTransfer | StoredPayout | StoredPushToCard;

/** A rule's step as an offset in ms from the payment's creation. */
interface PlannedStep {
  readonly afterMs: number;
  readonly status: LifecycleStep['status'];
}

/** Each rule's steps in ms, made once: every payment the rule matches shares them. */
const plans = new WeakMap<readonly ScenarioStep[], readonly PlannedStep[]>();

function planOf(steps: readonly ScenarioStep[]): readonly PlannedStep[] {
  const kept = plans.get(steps);
  if (kept && samePlan(kept, steps)) return kept;
  const plan = Object.freeze(
    steps.map((step) => Object.freeze({ afterMs: Math.round(step.after * 1000), status: step.status })),
  );
  plans.set(steps, plan);
  return plan;
}

/** A scenario is the caller's object: a rule's steps changed in place make a new plan. */
function samePlan(plan: readonly PlannedStep[], steps: readonly ScenarioStep[]): boolean {
  if (plan.length !== steps.length) return false;
  for (let index = 0; index < plan.length; index++) {
    const planned = plan[index] as PlannedStep;
    const step = steps[index] as ScenarioStep;
    if (planned.status !== step.status || planned.afterMs !== Math.round(step.after * 1000)) return false;
  }
  return true;
}

/**
 * A new payment's lifecycle: its rule's shared plan and its creation time, so a stored payment keeps
 * one object and one number for it, not a list of steps; written out as state files write any
 * lifecycle (each step at its time on the mock clock).
 */
class PlannedLifecycle implements Lifecycle {
  next = 0;
  constructor(
    private readonly plan: readonly PlannedStep[],
    private readonly created: number,
  ) {}

  get steps(): LifecycleStep[] {
    return this.plan.map((step) => ({ at: this.created + step.afterMs, status: step.status }));
  }

  step(index: number): LifecycleStep | undefined {
    const planned = this.plan[index];
    return planned && { at: this.created + planned.afterMs, status: planned.status };
  }

  toJSON(): Lifecycle {
    return { steps: this.steps, next: this.next };
  }
}

/** The steps of the scenario rule a new payment matches, timed from `created`; none: it stays processing. */
export function lifecycleFor(
  scenario: Scenario,
  facts: PaymentFacts,
  created: number,
): Lifecycle | undefined {
  const steps = stepsFor(scenario, facts);
  if (steps.length === 0) return undefined;
  return new PlannedLifecycle(planOf(steps), created);
}

/** The step of `lifecycle` still ahead, or undefined when every step was taken. */
export function nextStep(lifecycle: Lifecycle | undefined): LifecycleStep | undefined {
  if (lifecycle === undefined) return undefined;
  return lifecycle instanceof PlannedLifecycle
    ? lifecycle.step(lifecycle.next)
    : lifecycle.steps[lifecycle.next];
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

/**
 * Each event type's one string: a type made anew at each settlement was hashed anew wherever it
 * is counted (coverage keys its counts by it).
 */
const EVENT_TYPES: ReadonlyMap<string, ReadonlyMap<string, string>> = new Map(
  (['usd_transfer', 'wallet_payout', 'push_to_card'] satisfies PaymentKind[]).map((kind) => [
    kind,
    new Map(
      (['successful', 'failed'] satisfies FinalStatus[]).map((status) => [status, `${kind}.${status}`]),
    ),
  ]),
);

/** The webhook event of a payment's step: its type, body (as JSON.stringify writes it) and owner. */
export function stepEvent(
  kind: PaymentKind,
  payment: StoredPayment,
  status: string,
  at: number,
): { type: string; payload: unknown; clientId: string | undefined } {
  const type = EVENT_TYPES.get(kind)?.get(status) ?? `${kind}.${status}`;
  return {
    type,
    payload: new StepPayload(type, at, payment.record, status),
    clientId: 'clientId' in payment ? payment.clientId : undefined,
  };
}
