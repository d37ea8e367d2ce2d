import { faultOf, type Report, type RuleResult } from '../../suites/index.ts';

/** What fails the run a report tells of, beside the provider's failures. */
export interface GateOptions {
  /** Findings about the client's own requests fail the run too (`pacu proxy --fail-on client`). @default false */
  readonly clientFails?: boolean;
}

/**
 * The failed checks by whose fault they are, as the check registry says (decision 170): the
 * provider's fail a run; the traffic judge's findings about a client's own requests (`pacu proxy`)
 * are the client's, shown as such, and fail a run only when the gate says so.
 */
export interface FaultSplit {
  readonly provider: readonly RuleResult[];
  readonly client: readonly RuleResult[];
  /** What fails the run: the provider's, and the client's under `clientFails`. */
  readonly failing: readonly RuleResult[];
}

export function failedByFault(report: Report, gate: GateOptions = {}): FaultSplit {
  const failed = report.rules.filter((rule) => rule.status === 'failed');
  const client = failed.filter((rule) => faultOf(rule.id) === 'client');
  const provider = failed.filter((rule) => faultOf(rule.id) !== 'client');
  return { provider, client, failing: gate.clientFails ? failed : provider };
}

/** Whether a failed check is a finding about the client's own request. */
export const isClientFinding = (rule: RuleResult): boolean =>
  rule.status === 'failed' && faultOf(rule.id) === 'client';

/** Whether a failed check fails the run under `gate`. */
export const failsRun = (rule: RuleResult, gate: GateOptions = {}): boolean =>
  rule.status === 'failed' && (gate.clientFails === true || !isClientFinding(rule));

/** `3 findings about its own requests`, for banners and summary lines. */
export const clientFindings = (count: number): string =>
  `${count} finding${count === 1 ? '' : 's'} about its own requests`;
