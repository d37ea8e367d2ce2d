import type fc from 'fast-check';
import type { OperationId, OperationSpec, Profile, Scope, Spec } from '../spec/index.ts';
import type { ApiRequest, ApiResponse } from './api-request.ts';
import type { ControlApiClient } from './control-client.ts';
import type { LifecycleObservation } from './lifecycle-observation.ts';
import type { RuleCategory } from './report.ts';
import type { TargetConfig, TargetIds } from './target-config.ts';
import type { TokenSource } from './token-source.ts';

/**
 * What a rule needs before it can run. The runner resolves each need once per run and writes the
 * skip reason of every unmet need in one place (suites/resolve-needs.ts).
 * - `client`: client credentials; `token`: a token for the configured scopes;
 * - `other-scopes`: a token for every scope but the ones the operation requires;
 * - `expired-token`: a token past its lifetime (the control API moves the target's clock past it);
 * - `ids`: the ids the operation's valid requests use; `control`: a pacu mock's control API;
 * - `observation`: the run's lifecycle observation, holding payments of the operation;
 * - `grants`: tokens for at least two sets of the spec's scopes, each with the scope its answer echoed.
 */
export type Need =
  | 'client'
  | 'token'
  | 'other-scopes'
  | 'expired-token'
  | 'ids'
  | 'control'
  | 'observation'
  | 'grants';

/** The judgement on one exchange (or a few): fine, or why not with the evidence. */
export type Verdict =
  | { readonly ok: true }
  | {
      readonly ok: false;
      readonly reason: string;
      readonly request: ApiRequest;
      readonly response?: ApiResponse;
      /** The profile of the assertion that failed. @default the rule's profile on the operation */
      readonly profile?: Profile;
    };

/** A token pacu asked for some scopes, and the names its answer's data.scope says were granted. */
export interface ScopeGrant {
  readonly asked: readonly Scope[];
  readonly granted: readonly string[];
  readonly token: string;
}

export const PASS: Verdict = { ok: true };

/** The case that received an answer: rerunning the rule's case at this seed and path sends it again. */
export interface ReceivingCase {
  /** The rule whose case it was (for the lifecycle observation, the rule that needed it). */
  readonly rule: string;
  /** Who received it, for reasons: the rule id, or "the lifecycle observation". */
  readonly label: string;
  readonly seed: number;
  /** The fast-check path of the case (none for a fixed scenario). */
  readonly path?: string;
  readonly input?: unknown;
}

/** An error answer whose envelope is wrong, and the case that received it. */
export type ErrorAnswerProblem = Extract<Verdict, { ok: false }> & { readonly receivedIn: ReceivingCase };

export type RuleOutcome =
  | { readonly status: 'passed'; readonly runs: number }
  | { readonly status: 'skipped'; readonly reason: string }
  | {
      readonly status: 'failed';
      readonly runs: number;
      readonly reason: string;
      readonly request: ApiRequest;
      readonly response?: ApiResponse;
      readonly profile?: Profile;
      readonly seed?: number;
      readonly path?: string;
      readonly counterexample?: unknown;
      /** Set when the failing answer came in another rule's case: seed and path are that case's. */
      readonly receivedBy?: string;
    };

export const skipped = (reason: string): RuleOutcome => ({ status: 'skipped', reason });

/**
 * Everything a rule gets for one operation, resolved by the runner: a rule reads "given, send,
 * judge" and never checks for a missing token or id itself.
 */
export interface RuleKit {
  readonly operation: OperationId;
  readonly spec: Spec;
  /** The operation's part of the spec. */
  readonly operationSpec: OperationSpec;
  /** The profile the run checks under. */
  readonly profile: Profile;
  readonly config: TargetConfig;
  /** A token for the configured scopes ('' unless the rule needs `token`). */
  readonly token: string;
  /** The ids the operation uses (set when the rule needs `ids`). */
  readonly ids: Required<TargetIds>;
  /** Client credentials (set when the rule needs `client`). */
  readonly client: { readonly clientId: string; readonly clientSecret: string };
  /** Tokens for other scope sets. */
  readonly tokens: TokenSource;
  /** A token for every scope but the operation's (set when the rule needs `other-scopes`). */
  readonly otherScopes: { readonly token: string; readonly scopes: readonly Scope[] };
  /** A token past its lifetime on the target's clock, and its age (set when the rule needs `expired-token`). */
  readonly expiredToken: { readonly token: string; readonly ageSeconds: number };
  /**
   * Send a request: a token pacu holds is swapped for a fresh one, an unexpected 401 on it is
   * retried once with a new token, and every error answer's envelope is recorded for envelope.error-shape.
   */
  send(request: ApiRequest): Promise<ApiResponse>;
  /** Send exactly this request, nothing swapped or retried (for rules about tokens themselves). */
  sendRaw(request: ApiRequest): Promise<ApiResponse>;
  /** Valid requests for the operation (needs `ids`, and `token` or `client`). */
  valid(): fc.Arbitrary<ApiRequest>;
  /** Valid request bodies of a JSON operation, ids and checksums filled in, each with its own reference. */
  validBodies(): fc.Arbitrary<Record<string, unknown>>;
  /** A reference unique to this body in this run (the same body keeps it, for shrinking and replay). */
  referenceFor(body: Record<string, unknown>): string;
  /** Check `judge` on generated inputs: fast-check with the run's seed and count, shrunk on failure. */
  check<T>(
    arbitrary: fc.Arbitrary<T>,
    judge: (input: T) => Promise<Verdict>,
    runs?: number,
  ): Promise<RuleOutcome>;
  /** A fixed scenario: one verdict, one run. */
  once(judge: () => Promise<Verdict>): Promise<RuleOutcome>;
  /** Tokens asked for different scope sets, with what each answer echoed (set when the rule needs `grants`). */
  readonly grants: readonly ScopeGrant[];
  /** The control API (set when the rule needs `control`). */
  readonly control?: ControlApiClient;
  /** The run's lifecycle observation (set when the rule needs `observation`). */
  readonly observation?: LifecycleObservation;
  /** The error answers every rule received on this operation so far: how many, and those with a wrong envelope. */
  errorAnswers(): { readonly judged: number; readonly problems: readonly ErrorAnswerProblem[] };
  /**
   * Set when replaying an answer this rule judged in another rule's case: that case has just run,
   * and only what it received is to be judged (the rule's own property would be a different case).
   */
  readonly replayingCaseOf?: string;
  readonly seed: number;
}

/** One conformance rule, checked once per operation it covers. */
export interface Rule {
  readonly id: string;
  readonly category: Exclude<RuleCategory, 'contract'>;
  /** One line: what the rule checks. */
  readonly title: string;
  readonly operations: readonly OperationId[];
  /** What the runner must resolve first; a need it cannot meet makes the rule skipped, with the reason. */
  readonly needs: readonly Need[];
  /** `documented` when the interface description states it for this operation, else `strict`. */
  profileFor(operation: OperationId): Profile;
  /** Moves the target's clock: runs alone, after every other rule but the `last` ones. */
  readonly exclusive?: boolean;
  /** Judges what the other rules received: runs after all of them, the exclusive ones too. */
  readonly last?: boolean;
  /** Checked under any profile when true (the user opted in, e.g. by giving a webhook receiver). */
  optedIn?(config: TargetConfig): boolean;
  run(kit: RuleKit): Promise<RuleOutcome>;
}

/** The usual profile split: documented on the listed operations, strict elsewhere. */
export function documentedOn(...operations: OperationId[]): (operation: OperationId) => Profile {
  return (operation) => (operations.includes(operation) ? 'documented' : 'strict');
}
