import type { Report, RuleResult } from '../../suites/index.ts';

const quote = (word: string): string =>
  /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;

/**
 * The `pacu check --replay` line for a failed rule, carrying every non-secret flag that shaped the run
 * (target, profile, ids…) so it reproduces on its own; credentials come from PACU_CLIENT_ID and
 * PACU_CLIENT_SECRET. Undefined where there is none: a contract interaction is rerun by `pacu verify`.
 */
export function replayCommand(rule: RuleResult, report?: Pick<Report, 'rerunFlags'>): string | undefined {
  if (!rule.failure || rule.category === 'contract') return undefined;
  return ['pacu check --replay', rule.failure.id, ...(report?.rerunFlags ?? []).map(quote)].join(' ');
}

/** Said once beside the replay and curl lines of a report with failures. */
export { CURL_ENVIRONMENT_NOTE as REPRODUCE_NOTE } from '../../suites/index.ts';
