import type { RuleResult } from '../../suites/index.ts';

/**
 * The `pacu check --replay` line for a failed rule, or undefined where there is none: a contract
 * interaction is rerun by `pacu verify`, not replayed from a failure id.
 */
export function replayCommand(rule: RuleResult): string | undefined {
  if (!rule.failure || rule.category === 'contract') return undefined;
  return `pacu check --replay ${rule.failure.id}`;
}
