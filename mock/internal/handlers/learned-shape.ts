import type { OperationId } from '../../../spec/index.ts';
import type { MockContext } from '../context.ts';
import { applyPlan } from '../learn/record-plan.ts';

/**
 * `record` in the shape a recorded sandbox gives this operation's records (its extra fields, its
 * echoes, the fields it leaves out); pacu's record as it is when nothing was learned.
 */
export function shaped<T extends object>(
  context: MockContext,
  operation: OperationId,
  record: T,
  request: Readonly<Record<string, unknown>>,
): T {
  const plan = context.behaviour.plans[operation];
  if (!plan) return record;
  return applyPlan(plan, record, request, {
    stamp: () => context.behaviour.stamp(context.clock.now()),
    now: () => context.clock.now(),
  });
}

/** The success message of an operation: the recorded sandbox's, else pacu's. */
export const said = (context: MockContext, operation: OperationId, pacu: string): string =>
  context.behaviour.messages[operation] ?? pacu;
