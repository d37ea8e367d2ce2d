import {
  CHECK_CATEGORIES,
  CURL_ENVIRONMENT_NOTE,
  type Report,
  type RuleCategory,
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
