import type { RuleCategory, RuleResult } from '../../suites/index.ts';

/** Categories of `pacu check` rules; Pact interactions and webhook-receiver checks are rerun whole. */
const REPLAYABLE: ReadonlySet<RuleCategory> = new Set([
  'envelope',
  'auth',
  'idempotency',
  'errors',
  'positive',
  'lifecycle',
]);

/**
 * The `pacu check --replay` line for a failed rule, or undefined where there is none: a contract
 * interaction is rerun by `pacu verify`, a receiver by `pacu webhooks check`, not from a failure id.
 */
export function replayCommand(rule: RuleResult): string | undefined {
  if (!rule.failure || !REPLAYABLE.has(rule.category)) return undefined;
  return `pacu check --replay ${rule.failure.id}`;
}
