import type { RequestEnd, RequestObserver } from '../../http/index.ts';
import { type Profile, routeRequest, type Spec } from '../../spec/index.ts';
import { faultOf, judgedCheck } from '../rules/catalogue.ts';
import { createExchangeJudge, type ExchangeFinding, type JudgeWarmUp, warmJudge } from './exchange-judge.ts';
import { createExchangeState } from './exchange-state.ts';
import type { FindingLog } from './finding-log.ts';
import { exchangeOf } from './traffic-exchange.ts';

// The checks of an exchange whose answer is not a whole one from the provider, named in the registry.
const CUT = [judgedCheck('transport', 'transport.cut-answer')] as const;
const NO_ANSWER = [judgedCheck('transport', 'transport.no-answer')] as const;

/** What judges traffic as it settles: findings go to the log, every rule it applied is counted. */
export interface JudgeObserver extends RequestObserver {
  /** How many exchanges each rule judged on each operation (passed unless a finding says so). */
  readonly judged: ReadonlyMap<string, ReadonlyMap<string, number>>;
  /** Exchanges judged so far. */
  readonly exchanges: number;
  /** Compile what judging asks for ahead of the traffic, a little at a time (once the surface listens). */
  warm(): void;
}

export interface JudgeObserverOptions {
  readonly spec: Spec;
  readonly profile: Profile;
  readonly findings: FindingLog;
}

/**
 * The exchange judge as an observer of a request pipeline (the proxy's, or the mock's under
 * `pacu mock --findings`): each exchange judged once it settled, off the answer's path. An answer
 * that broke off is a provider finding of its own; one the proxy made because none came (502,
 * 504) too; an answer a mock fault shaped is what was asked for, and is not judged.
 */
export function createJudgeObserver({ spec, profile, findings }: JudgeObserverOptions): JudgeObserver {
  const judge = createExchangeJudge(spec, profile);
  // Counted by the list of rules a verdict names (the judge hands out the same few lists): one
  // count per exchange, spread over the rules only when `judged` is read.
  const counts = new Map<string, Map<readonly string[], number>>();
  let exchanges = 0;
  const count = (operation: string, rules: readonly string[]): void => {
    let byRules = counts.get(operation);
    if (!byRules) {
      byRules = new Map();
      counts.set(operation, byRules);
    }
    byRules.set(rules, (byRules.get(rules) ?? 0) + 1);
  };
  const judged = (): Map<string, Map<string, number>> => {
    const out = new Map<string, Map<string, number>>();
    for (const [operation, byRules] of counts) {
      const byRule = new Map<string, number>();
      for (const [rules, times] of byRules)
        for (const rule of rules) byRule.set(rule, (byRule.get(rule) ?? 0) + times);
      out.set(operation, byRule);
    }
    return out;
  };
  const transport = (event: RequestEnd, rule: string, reason: string): ExchangeFinding => ({
    side: faultOf(rule),
    rule,
    profile: 'documented',
    reason,
    operation: event.operationId,
    exchange: exchangeOf(event, spec.basePath),
  });
  let warming: JudgeWarmUp | undefined;
  return {
    get judged() {
      return judged();
    },
    get exchanges() {
      return exchanges;
    },
    warm() {
      warming ??= warmJudge(spec, profile);
    },
    close() {
      warming?.stop();
    },
    settled(event) {
      if (event.fault) return;
      const error = event.answer.error;
      // A mock's reset on purpose, or a client that left: nothing the provider did.
      if (error?.kind === 'dropped' || error?.kind === 'left') return;
      exchanges += 1;
      if (error) {
        const rules = error.kind === 'cut' ? CUT : NO_ANSWER;
        const rule = rules[0];
        count(event.operationId ?? 'unknown', rules);
        findings.report(transport(event, rule, error.message.replace(/^pacu proxy: /, '')));
        return;
      }
      const exchange = exchangeOf(event, spec.basePath);
      const verdict = judge(
        exchange,
        event.route ?? routeRequest(spec, exchange.request.method, exchange.request.path),
      );
      count(event.operationId ?? 'unknown', verdict.checked);
      for (const finding of verdict.findings) findings.report(finding);
    },
  };
}

/**
 * The stateful half of the judge as an observer (exchange-state.ts: a replayed reference answered
 * with another transaction, a token refused early or accepted late, a scope echoed wrong).
 */
export function createStateObserver({
  spec,
  findings,
}: Omit<JudgeObserverOptions, 'profile'>): RequestObserver {
  const state = createExchangeState();
  return {
    settled(event) {
      if (event.fault || event.answer.error) return;
      for (const finding of state.observe(event.operationId, exchangeOf(event, spec.basePath)))
        findings.report(finding);
    },
  };
}
