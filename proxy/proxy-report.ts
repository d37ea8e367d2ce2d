import type { Redactor } from '../http/index.ts';
import type { Profile } from '../spec/index.ts';
import {
  buildReport,
  checkNamed,
  type ExchangeFinding,
  type Report,
  type ResultDraft,
  type RuleCategory,
} from '../suites/index.ts';

/** The matrix column of a check: its category in the one registry of checks. */
const categoryOf = (rule: string): RuleCategory => checkNamed(rule)?.category ?? 'errors';

export interface ProxyReportInput {
  readonly upstream: string;
  readonly profile: Profile;
  readonly startedAt: Date;
  readonly findings: readonly ExchangeFinding[];
  /** How many exchanges each rule judged on each operation (passed unless a finding says otherwise). */
  readonly judged: ReadonlyMap<string, ReadonlyMap<string, number>>;
  readonly exchanges: number;
  readonly recorded: number;
  readonly record: string | undefined;
  readonly dropped: number;
  readonly redactor: Redactor;
}

/**
 * What the proxy saw, as the report `pacu check` writes (so the same reporters render it): a
 * failed row per finding, with its exchange and a curl line against the upstream, and a passed row
 * per rule and operation the traffic reached without one. No traffic is no pass: a note says so.
 */
export function buildProxyReport(input: ProxyReportInput): Report {
  const failedCells = new Set(
    input.findings.map((finding) => `${finding.operation ?? 'unknown'} ${finding.rule}`),
  );
  const passed: ResultDraft[] = [];
  for (const [operation, rules] of input.judged)
    for (const [rule, runs] of rules)
      if (!failedCells.has(`${operation} ${rule}`))
        passed.push({
          id: rule,
          category: categoryOf(rule),
          operation: operation as ResultDraft['operation'],
          profile: input.profile,
          status: 'passed',
          runs,
          durationMs: 0,
        });
  const failed = input.findings.map(
    (finding): ResultDraft => ({
      id: finding.rule,
      category: categoryOf(finding.rule),
      operation: (finding.operation ?? 'unknown') as ResultDraft['operation'],
      profile: finding.profile,
      status: 'failed',
      runs: 1,
      durationMs: finding.exchange.response.durationMs,
      title: `${finding.side}-side: exchange #${finding.exchange.seq} at ${finding.exchange.startedAt}`,
      failure: {
        id: `proxy/${finding.exchange.seq}/${finding.rule}`,
        reason: `${finding.side === 'client' ? 'your client' : 'the provider'}: ${finding.reason}`,
        request: finding.exchange.request,
        response: finding.exchange.response,
        profile: finding.profile,
      },
    }),
  );
  const notes = [
    input.exchanges === 0
      ? 'no exchange went through the proxy: nothing was judged'
      : `${input.exchanges} exchange${input.exchanges === 1 ? '' : 's'} judged${input.record ? `, ${input.recorded} recorded in ${input.record}` : ''}`,
    ...(input.dropped > 0 ? [`${input.dropped} more findings were counted but not kept`] : []),
  ];
  return {
    ...buildReport({
      command: 'proxy',
      target: input.upstream,
      baseUrl: input.upstream,
      seed: 0,
      profile: input.profile,
      startedAt: input.startedAt,
      results: [...failed, ...passed],
      redactor: input.redactor,
      notes,
    }),
  };
}
