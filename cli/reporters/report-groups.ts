import type { Report, RuleResult } from '../../suites/index.ts';

/** One skip reason and the rule and operations it kept from running. */
export interface SkipGroup {
  readonly rule: string;
  readonly reason: string;
  readonly operations: readonly string[];
}

/** The skipped results of a report, one entry per rule and reason (what the console's "skipped:" lists). */
export function skipGroups(report: Report): SkipGroup[] {
  const groups = new Map<string, { rule: string; reason: string; operations: string[] }>();
  for (const result of report.rules) {
    if (result.status !== 'skipped' || !result.skipReason) continue;
    const key = `${result.id}\n${result.skipReason}`;
    const group = groups.get(key) ?? { rule: result.id, reason: result.skipReason, operations: [] };
    group.operations.push(result.operation);
    groups.set(key, group);
  }
  return [...groups.values()];
}

/** Failures that share one cause: the same reason, told apart only by rule and operation. */
export interface FailureGroup {
  readonly reason: string;
  readonly failures: readonly RuleResult[];
}

/**
 * The failures of a report grouped by their reason, in order of first appearance, so 24 failures
 * from one expired token read as one problem with 24 places, not 24 problems.
 */
export function failureGroups(report: Report): FailureGroup[] {
  const groups = new Map<string, RuleResult[]>();
  for (const result of report.rules) {
    if (result.status !== 'failed' || !result.failure) continue;
    const reason = result.failure.reason;
    groups.set(reason, [...(groups.get(reason) ?? []), result]);
  }
  return [...groups].map(([reason, failures]) => ({ reason, failures }));
}
