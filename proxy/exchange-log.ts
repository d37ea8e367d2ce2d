import type { HarExchange, Redactor } from '../http/index.ts';
import type { Profile, RouteResult, Spec } from '../spec/index.ts';
import {
  createExchangeJudge,
  createExchangeState,
  type ExchangeFinding,
  type ObservedExchange,
  type Report,
} from '../suites/index.ts';
import type { HarRecorder } from './har-recorder.ts';
import { createHarWriter } from './har-writer.ts';
import { forgetParsed } from './lazy-answer.ts';
import { buildProxyReport } from './proxy-report.ts';

/** Findings kept for `findings()` and the report; later ones are counted, not kept. */
export const KEPT_FINDINGS = 10_000;

export interface ExchangeLogDeps {
  readonly spec: Spec;
  readonly profile: Profile;
  readonly upstream: string;
  readonly redactor: Redactor;
  readonly recorder: HarRecorder | undefined;
  readonly record: string | undefined;
  readonly keepExchanges: number;
  readonly onFinding: ((finding: ExchangeFinding) => void) | undefined;
  readonly log: (line: string) => void;
}

/** What the proxy does with what it saw: judge, keep, record, and report. */
export interface ExchangeLog {
  /**
   * An exchange whose answer reached the client whole: judged, kept, and recorded (`har`,
   * unredacted). `textSeen`: the answer's text is one an earlier exchange had (the same bytes).
   */
  complete(
    exchange: ObservedExchange,
    routed: RouteResult,
    har: HarExchange | undefined,
    textSeen?: boolean,
  ): void;
  /** A finding made outside the judge (no answer from the upstream). */
  report(finding: ExchangeFinding): void;
  findings(): ExchangeFinding[];
  exchanges(): ObservedExchange[];
  counts(): { readonly exchanges: number; readonly recorded: number };
  toReport(): Report;
}

export function createExchangeLog(deps: ExchangeLogDeps): ExchangeLog {
  const { spec, redactor, recorder, keepExchanges } = deps;
  const startedAt = new Date();
  const judge = createExchangeJudge(spec, deps.profile);
  const harText = createHarWriter(redactor);
  const state = createExchangeState();
  const found: ExchangeFinding[] = [];
  const judged = new Map<string, Map<string, number>>();
  const recent: ObservedExchange[] = [];
  let completed = 0;
  let dropped = 0;
  const inOrder = (): ObservedExchange[] => {
    if (recent.length < keepExchanges) return [...recent];
    const at = completed % keepExchanges;
    return [...recent.slice(at), ...recent.slice(0, at)];
  };
  const report = (finding: ExchangeFinding): void => {
    if (found.length < KEPT_FINDINGS) found.push(finding);
    else dropped += 1;
    deps.onFinding?.(redactor.redact(finding));
  };
  return {
    report,
    complete(exchange, routed, har, textSeen = false) {
      completed += 1;
      const operationId = routed.kind === 'operation' ? routed.operation.id : undefined;
      // Learn an issued token before anything that holds it is redacted (the text test spares
      // every other answer a JSON parse; a text seen before was looked at then).
      if (!textSeen && exchange.response.text.includes('access_token')) redactor.observe(exchange.response);
      const verdict = judge(exchange, routed);
      const byRule = judged.get(operationId ?? 'unknown') ?? new Map<string, number>();
      judged.set(operationId ?? 'unknown', byRule);
      for (const rule of verdict.checked) byRule.set(rule, (byRule.get(rule) ?? 0) + 1);
      for (const finding of verdict.findings) report(finding);
      for (const finding of state.observe(operationId, exchange)) report(finding);
      // What is kept keeps its text, not its parse (a tree of small objects every young collection
      // would copy while the exchange is in the ring): it is parsed again if read again.
      forgetParsed(exchange.response);
      // A ring: the oldest slot is overwritten, nothing moves.
      if (recent.length < keepExchanges) recent.push(exchange);
      else if (keepExchanges > 0) recent[(completed - 1) % keepExchanges] = exchange;
      if (recorder && har) recorder.add(harText(har));
    },
    findings: () => redactor.redact(found),
    exchanges: () => redactor.redact(inOrder()),
    counts: () => ({ exchanges: completed, recorded: recorder?.recorded ?? 0 }),
    toReport: () =>
      buildProxyReport({
        upstream: deps.upstream,
        profile: deps.profile,
        startedAt,
        findings: found,
        judged,
        exchanges: completed,
        recorded: recorder?.recorded ?? 0,
        record: deps.record,
        dropped,
        redactor,
      }),
  };
}
