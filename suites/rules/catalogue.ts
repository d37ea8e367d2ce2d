import type { RuleCategory } from '../report/report.ts';
import { bearerRequiredRule, scopeEnforcedRule, tokenGrantRule, tokenRefusalRule } from './auth.ts';
import { contentTypeRule, errorShapeRule, successShapeRule } from './envelope.ts';
import { invalidBodyRule, malformedRequestRule, unknownIdRule } from './errors.ts';
import { grantedScopeRule } from './granted-scope.ts';
import {
  concurrentRequestsRule,
  sameReferenceDifferentBodyRule,
  sameReferenceReplayRule,
} from './idempotency.ts';
import { signedWebhooksRule, statusTransitionsRule } from './lifecycle.ts';
import { limitsRule } from './limits.ts';
import {
  acceptedRule,
  creationValuesRule,
  echoesRequestRule,
  messageStatesRule,
  versionPathRule,
} from './positive.ts';
import type { Rule } from './rule.ts';
import { tokenExpiryRule } from './token-expiry.ts';

/**
 * Whose fault a failed check is: the provider's answer, or the client's own request (findings of
 * the traffic judge about what a team's client sent).
 */
export type Fault = 'provider' | 'client';

/**
 * What judges traffic with a check: one exchange at a time (`exchange`), what many exchanges show
 * together (`state`: a reference, a token's life), or an answer that never came whole (`transport`).
 */
export type TrafficJudge = 'exchange' | 'state' | 'transport';

/** One check pacu knows, whoever runs it: `pacu check`'s rule, the traffic judge, or both. */
export interface CheckEntry {
  readonly id: string;
  readonly category: RuleCategory;
  /** One line: what the check asks of an answer (or a request). */
  readonly title: string;
  readonly fault: Fault;
  /** `pacu check` runs it, on the operations the rule applies to. */
  readonly rule?: Rule;
  /** `pacu proxy` and `pacu mock --findings` judge traffic with it. */
  readonly judge?: TrafficJudge;
  /** For a check only the judge applies: the profile its findings carry. */
  readonly profile?: string;
}

/** A `pacu check` rule as a registry entry: a rule judges the provider. */
const ruled = (rule: Rule, judge?: TrafficJudge): CheckEntry => ({
  id: rule.id,
  category: rule.category,
  title: rule.title,
  fault: 'provider',
  rule,
  ...(judge ? { judge } : {}),
});

/**
 * The one list of checks, in report order (Schemathesis keeps its checks in one registry its CLI,
 * its pytest plugin and its stateful runner read): `pacu check`'s rules, the traffic judge's checks
 * and what both apply under one id. `pacu rules`, the judge and docs/reference/rules.md read it.
 */
export const CHECKS: readonly CheckEntry[] = [
  {
    id: 'client.operation',
    category: 'client',
    title: 'the request names an operation of the description (its method and path)',
    fault: 'client',
    judge: 'exchange',
    profile: 'documented',
  },
  {
    id: 'client.content-type',
    category: 'client',
    title: "the request body is sent as the operation's media type (JSON, a form for the token request)",
    fault: 'client',
    judge: 'exchange',
    profile: 'documented',
  },
  {
    id: 'client.request-shape',
    category: 'client',
    title: "the request body keeps the operation's request schema (e.g. recipient_name, not receipient_name)",
    fault: 'client',
    judge: 'exchange',
    profile: 'documented',
  },
  {
    id: 'client.authorization',
    category: 'client',
    title:
      'the request carries Basic credentials on the token request and a bearer token on usdTransfer (strict: on every bearer operation)',
    fault: 'client',
    judge: 'exchange',
    profile: 'documented on getAccessToken, usdTransfer; strict elsewhere',
  },
  ruled(contentTypeRule, 'exchange'),
  {
    id: 'envelope.status-code',
    category: 'envelope',
    title: "a success uses HTTP 200 (strict: every status is one of the operation's responses)",
    fault: 'provider',
    judge: 'exchange',
    profile: 'documented (strict: a status the operation does not list)',
  },
  ruled(successShapeRule, 'exchange'),
  ruled(errorShapeRule, 'exchange'),
  ruled(tokenGrantRule),
  {
    id: 'auth.scope-echo',
    category: 'auth',
    title: 'the token answer echoes no scope the token request did not ask for',
    fault: 'provider',
    judge: 'state',
    profile: 'documented',
  },
  ruled(grantedScopeRule),
  ruled(tokenRefusalRule),
  ruled(bearerRequiredRule),
  ruled(scopeEnforcedRule),
  {
    id: 'auth.token-refused-early',
    category: 'auth',
    title: 'a token is not refused with 401 before its own expires_in_seconds ran out',
    fault: 'provider',
    judge: 'state',
    profile: 'documented',
  },
  ruled(tokenExpiryRule, 'state'),
  ruled(sameReferenceReplayRule, 'state'),
  ruled(sameReferenceDifferentBodyRule),
  ruled(concurrentRequestsRule),
  ruled(invalidBodyRule),
  ruled(malformedRequestRule),
  ruled(unknownIdRule),
  ruled(limitsRule),
  ruled(acceptedRule),
  ruled(echoesRequestRule),
  ruled(creationValuesRule),
  ruled(messageStatesRule),
  ruled(versionPathRule),
  ruled(statusTransitionsRule),
  ruled(signedWebhooksRule),
  {
    id: 'transport.no-answer',
    category: 'errors',
    title: 'the provider answers (the proxy made a 502 or 504 because no answer came)',
    fault: 'provider',
    judge: 'transport',
    profile: 'documented',
  },
  {
    id: 'transport.cut-answer',
    category: 'errors',
    title: 'an answer the provider began arrives whole',
    fault: 'provider',
    judge: 'transport',
    profile: 'documented',
  },
];

/** Every rule `pacu check` runs, in report order: the registry's entries that have one. */
export const RULES: readonly Rule[] = CHECKS.flatMap((entry) => (entry.rule ? [entry.rule] : []));

const byId = new Map(CHECKS.map((entry) => [entry.id, entry]));

/** The registry's entry for `id`, or undefined for an id pacu has no check for (a pact interaction's). */
export const checkNamed = (id: string): CheckEntry | undefined => byId.get(id);

/** Whose fault a failure of `id` is (a pact interaction, a webhook case: the provider's). */
export const faultOf = (id: string): Fault => byId.get(id)?.fault ?? 'provider';

/**
 * The id of a check the traffic judge applies, read from the registry at load: a judge names its
 * checks here instead of keeping a table of its own, and an id the registry lacks fails every start.
 */
export function judgedCheck(judge: TrafficJudge, id: string): string {
  const entry = byId.get(id);
  if (entry?.judge !== judge)
    throw new Error(`pacu: the check registry has no ${judge} check ${id} (suites/rules/catalogue.ts)`);
  return entry.id;
}
