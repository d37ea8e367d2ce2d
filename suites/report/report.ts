import type { Profile } from '../../spec/index.ts';
import type { ApiRequest } from '../target/api-request.ts';

/**
 * The matrix columns of a report. `contract` holds Pact interactions verified by `pacu verify`;
 * `delivery`, `signature` and `timestamp` are `pacu webhooks check`'s judgement of a receiver;
 * `client` holds what `pacu proxy` saw a client send that the description does not allow.
 */
export type RuleCategory =
  | 'client'
  | 'envelope'
  | 'auth'
  | 'idempotency'
  | 'errors'
  | 'positive'
  | 'lifecycle'
  | 'contract'
  | 'delivery'
  | 'signature'
  | 'timestamp';

/** The categories of `pacu check`'s rules, in report order. */
export const CHECK_CATEGORIES = [
  'envelope',
  'auth',
  'idempotency',
  'errors',
  'positive',
  'lifecycle',
] as const satisfies readonly RuleCategory[];

/** A webhook event name, e.g. `usd_transfer.successful`: the rows of a `pacu webhooks check` report. */
export type WebhookEventType = `${string}.${string}`;

export type RuleStatus = 'passed' | 'failed' | 'skipped';

/** What the target answered, as a report keeps it. */
export interface RecordedResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/** Why a rule failed, with everything needed to see it again. */
export interface RuleFailure {
  /** Stable id of this failure, accepted by `pacu check --replay`. */
  readonly id: string;
  /** Why the response breaks the rule, in one or two sentences. */
  readonly reason: string;
  /** The minimal (shrunk) request. */
  readonly request: ApiRequest;
  readonly response?: RecordedResponse;
  /** A copy-paste curl command for the (redacted) request; credentials come from `$PACU_*` variables. */
  readonly curl: string;
  /**
   * The profile of the assertion that failed: `strict` when only a pacu decision was broken, even
   * inside a rule that is documented for this operation.
   */
  readonly profile?: Profile;
  /**
   * fast-check seed and path that reproduce the case (a fixed scenario has a seed only). For an
   * answer judged in another rule's case, that case's: the id names its rule after an `@`.
   */
  readonly seed?: number;
  readonly path?: string;
  /** The generated input (shrunk, for a property's own failure), when the case is a property's. */
  readonly counterexample?: unknown;
}

/** One rule on one operation: a cell of the operations × categories matrix. */
export interface RuleResult {
  readonly id: string;
  readonly category: RuleCategory;
  /** `unknown` for a Pact interaction on a path the spec lacks; an event type for `pacu webhooks check`. */
  /** The operation's id in the spec (an event type for webhook checks; `unknown` when none matched). */
  readonly operation: string;
  readonly profile: Profile;
  readonly status: RuleStatus;
  /** Cases run (generated inputs, or 1 for a fixed scenario). */
  readonly runs: number;
  /** Cases that lost an answer (a reset, a time-out) and were neither passed nor failed. */
  readonly inconclusive?: number;
  readonly durationMs: number;
  /** Why the rule was skipped (an id the user did not give, a profile not asked for...). */
  readonly skipReason?: string;
  /** Warnings that hold whatever the status (a Pact state run without setup). */
  readonly notes?: readonly string[];
  readonly failure?: RuleFailure;
  /** One line saying what the rule checks, for reports. */
  readonly title?: string;
}

export interface ReportSummary {
  readonly passed: number;
  readonly failed: number;
  readonly skipped: number;
}

/** What `pacu check` and `pacu verify` produce; every reporter renders this and nothing else. */
export interface Report {
  readonly tool: 'pacu';
  readonly command: 'check' | 'verify' | 'webhooks check' | 'replay' | 'proxy';
  readonly version: string;
  readonly target: string;
  readonly seed: number;
  readonly profile: Profile;
  readonly startedAt: string;
  readonly durationMs: number;
  readonly summary: ReportSummary;
  readonly rules: readonly RuleResult[];
  /** What the run itself says: categories that could not run, tokens refreshed mid-run… */
  readonly notes?: readonly string[];
  /** Non-secret flags that shaped the run; a failure's replay line is `pacu check --replay <id>` plus these. */
  readonly rerunFlags?: readonly string[];
  /** What the run sent: requests (resends included), 429/503 answers waited out, reads resent, cases inconclusive. */
  readonly traffic?: Traffic;
  /** What the run learned about the provider where the description is silent: information, never a failure. */
  readonly learned?: Learned;
}

/**
 * A bound the provider keeps on a field the description bounds nowhere, found when it refused an
 * in-schema value with 400 and took the same request with a central value of that field.
 */
export interface LearnedBound {
  readonly operation: string;
  readonly field: string;
  /** The values of the request's listed fields the bound holds for (its payment type); empty: all. */
  readonly when: Readonly<Record<string, string>>;
  /** Refused below or above a number, longer or shorter than a length, or this one value. */
  readonly kind: 'below' | 'above' | 'longer' | 'shorter' | 'value';
  /** The least or most number taken, the longest or shortest length taken, or the value refused. */
  readonly limit: number | string;
  /** One line: `usdTransfer WIRE amount: refused below 1.00`. */
  readonly text: string;
}

/** What pacing learned: the rate the provider accepts, how it writes Retry-After, how often it was down. */
export interface LearnedRate {
  /** Requests a second pacu kept to after its 429s. */
  readonly perSecond?: number;
  /** Measured between two 429s (else a first guess that held, never refused again). */
  readonly measured?: boolean;
  readonly episodes?: number;
  readonly retryAfter: readonly ('seconds' | 'date')[];
  /** 503 answers waited out. */
  readonly unavailable: number;
}

export interface Learned {
  readonly bounds: readonly LearnedBound[];
  readonly rate?: LearnedRate;
}

export interface Traffic {
  readonly sent: number;
  readonly throttled: number;
  readonly retried: number;
  readonly inconclusive: number;
}

/** Count the statuses of a list of results. */
export function summarise(rules: readonly RuleResult[]): ReportSummary {
  return {
    passed: rules.filter((rule) => rule.status === 'passed').length,
    failed: rules.filter((rule) => rule.status === 'failed').length,
    skipped: rules.filter((rule) => rule.status === 'skipped').length,
  };
}

/**
 * The lines of a report's learned section, for every reporter: each bound, then the pacing. Empty
 * when the run learned nothing.
 */
export function learnedLines(learned: Learned | undefined): string[] {
  if (!learned) return [];
  const lines = learned.bounds.map((bound) => bound.text);
  const rate = learned.rate;
  if (rate) {
    const parts: string[] = [];
    if (rate.perSecond !== undefined)
      parts.push(
        rate.measured
          ? `rate: ${rate.perSecond} requests a second kept, 95 % of what the provider took between two 429s`
          : `rate: no second 429 came to measure it; pacu kept to at most ${rate.perSecond} requests a second after the first`,
      );
    if (rate.retryAfter.length > 0)
      parts.push(
        `Retry-After as ${rate.retryAfter.map((form) => (form === 'date' ? 'an HTTP date' : 'seconds')).join(' and ')}`,
      );
    if (rate.unavailable > 0) parts.push(`${rate.unavailable} answers 503 waited out`);
    if (parts.length > 0) lines.push(parts.join('; '));
  }
  return lines;
}
