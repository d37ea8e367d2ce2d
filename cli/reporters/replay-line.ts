import {
  CHECK_CATEGORIES,
  CURL_ENVIRONMENT_NOTE,
  type Report,
  type RuleCategory,
  type RuleFailure,
  type RuleResult,
} from '../../suites/index.ts';

/** Categories of `pacu check` rules; Pact interactions and webhook-receiver checks are rerun whole. */
const REPLAYABLE: ReadonlySet<RuleCategory> = new Set(CHECK_CATEGORIES);

const quote = (word: string): string =>
  /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;

/**
 * The `pacu check --replay` line for a failed rule, carrying every non-secret flag that shaped the run
 * (target, profile, ids…) so it reproduces on its own; credentials come from PACU_CLIENT_ID and
 * PACU_CLIENT_SECRET. Undefined where there is none: a contract interaction is rerun by `pacu verify`,
 * a webhook receiver by `pacu webhooks check`.
 */
export function replayCommand(
  rule: RuleResult,
  report?: Pick<Report, 'rerunFlags'> & Partial<Pick<Report, 'command'>>,
): string | undefined {
  // What a proxy saw is the client's own traffic: its curl line reproduces it, no check case does.
  if (!rule.failure || !REPLAYABLE.has(rule.category) || report?.command === 'proxy') return undefined;
  return ['pacu check --replay', rule.failure.id, ...(report?.rerunFlags ?? []).map(quote)].join(' ');
}

/** Said once beside the replay and curl lines of a report with failures. */
export function reproduceNote(report: Pick<Report, 'command'>): string {
  return report.command === 'webhooks check'
    ? 'webhook-signature values are shown by what made them, never as the HMAC: to resend a message, sign it again with your secret and a fresh webhook-timestamp (receivers refuse one over 5 minutes old).'
    : CURL_ENVIRONMENT_NOTE;
}

/**
 * What `pacu check --replay` says when the failure did not come back: the failure as reported
 * (when the report is at hand) beside what the rule did this time. A verdict that comes and goes is
 * flaky (a transient fault, a timeout, state the target kept), which CI must not read as fixed.
 */
export function notReproducedMessage(id: string, now: RuleResult | undefined, before?: RuleFailure): string {
  const lines = [`pacu check: did not reproduce: ${id}`];
  if (before) {
    const status = before.response ? `status ${before.response.status}, ` : '';
    lines.push(`  before: ${status}${before.reason}`);
  } else lines.push('  before: (give --report-file report.json to compare with what failed)');
  lines.push(
    now?.status === 'skipped'
      ? `  now: the rule was skipped (${now.skipReason})`
      : `  now: the rule held on the same case (${now?.runs ?? 0} run)`,
  );
  lines.push(
    '  a failure that comes and goes is flaky (a transient fault, a timeout, state the target kept), not fixed: exit 3',
  );
  return `${lines.join('\n')}\n`;
}
