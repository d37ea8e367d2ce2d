import type fc from 'fast-check';
import type { OperationSpec, Profile, Scope, Spec } from '../../spec/index.ts';
import type { RuleCategory } from '../report/report.ts';
import type { BoundLedger } from '../runner/bound-ledger.ts';
import type { LifecycleObservation } from '../runner/lifecycle-observation.ts';
import type { ApiRequest, ApiResponse } from '../target/api-request.ts';
import type { ControlApiClient } from '../target/control-client.ts';
import type { IdValues } from '../target/resolve-ids.ts';
import type { TargetConfig } from '../target/target-config.ts';
import type { IssuedToken, TokenSource } from '../target/token-source.ts';

/** A held token refused with 401 while its stated life lasted, when a new one for its scopes was not. */
export interface EarlyRefusal {
  readonly ageMs: number;
  readonly lifeMs: number;
  readonly request: ApiRequest;
  readonly response: ApiResponse;
}

/**
 * What a rule needs before it can run. The runner resolves each need once per run and words the
 * skip reason of every unmet need in one place (suites/runner/resolve-needs.ts).
 */
export type Need =
  | 'client' // client credentials
  | 'token' // a token for the configured scopes
  | 'other-scopes' // a token for every scope but the ones the operation requires
  | 'expired-token' // a token past its lifetime (the control API moves the target's clock past it)
  | 'ids' // the ids the operation's valid requests use
  | 'control' // a pacu mock's control API
  | 'observation' // the run's lifecycle observation, holding payments of the operation
  | 'grants' // tokens for two or more sets of the spec's scopes, each with the scope it echoed
  | 'held-tokens'; // the run's oldest token with life left, and tokens refused while their life lasted

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
  /** `inconclusive`: cases whose answer was lost (not counted in `runs`). */
  | { readonly status: 'passed'; readonly runs: number; readonly inconclusive?: number }
  | { readonly status: 'skipped'; readonly reason: string }
  /** Every case lost an answer: nothing was judged. */
  | { readonly status: 'inconclusive'; readonly reason: string; readonly inconclusive: number }
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

/** What every rule gets for one operation, whatever it needs. */
interface KitBase {
  /** The operation's id in the spec. */
  readonly operation: string;
  readonly spec: Spec<string>;
  /** The operation's part of the spec. */
  readonly operationSpec: OperationSpec<string>;
  /** The profile the run checks under. */
  readonly profile: Profile;
  readonly config: TargetConfig;
  /** Tokens for any scope set. */
  readonly tokens: TokenSource;
  /**
   * Send a request: a token pacu holds is swapped for a fresh one, an unexpected 401 on it is
   * retried once with a new token, and every error answer's envelope is recorded for envelope.error-shape.
   */
  send(request: ApiRequest): Promise<ApiResponse>;
  /** Send exactly this request, nothing swapped or retried (for rules about tokens themselves). */
  sendRaw(request: ApiRequest): Promise<ApiResponse>;
  /** A reference unique to this body in this run (the same body keeps it, for shrinking and replay). */
  referenceFor(body: Record<string, unknown>): string;
  /** The bounds the run learned of fields the description bounds nowhere (shared by every rule). */
  readonly bounds: BoundLedger;
  /** Check `judge` on generated inputs: fast-check with the run's seed and count, shrunk on failure. */
  check<T>(
    arbitrary: fc.Arbitrary<T>,
    judge: (input: T) => Promise<Verdict>,
    runs?: number,
  ): Promise<RuleOutcome>;
  /** A fixed scenario: one verdict, one run. */
  once(judge: () => Promise<Verdict>): Promise<RuleOutcome>;
  /** Judge each of a small, known list of cases once (enumerated, not drawn); a failure replays by its index. */
  each<T>(cases: readonly T[], judge: (input: T) => Promise<Verdict>): Promise<RuleOutcome>;
  /**
   * What this rule's `observe` made of the answers every rule received on this operation so far:
   * how many it judged, and the wrong ones with the case that received each.
   */
  observed(): { readonly judged: number; readonly problems: readonly ErrorAnswerProblem[] };
  /**
   * Set when replaying an answer this rule judged in another rule's case: that case has just run,
   * and only what it received is to be judged (the rule's own property would be a different case).
   */
  readonly replayingCaseOf?: string;
  readonly seed: number;
}

/** What each need adds to the kit: present exactly when the rule declares the need. */
interface KitByNeed {
  /** Client credentials. */
  readonly client: { readonly client: { readonly clientId: string; readonly clientSecret: string } };
  /** A token for the configured scopes. */
  readonly token: { readonly token: string };
  /** A token for every scope but the operation's. */
  readonly 'other-scopes': {
    readonly otherScopes: { readonly token: string; readonly scopes: readonly Scope[] };
  };
  /** A token past its lifetime on the target's clock, and its age. */
  readonly 'expired-token': {
    readonly expiredToken: { readonly token: string; readonly ageSeconds: number };
  };
  /**
   * The ids the operation's requests carry, and valid requests built with them (with the `token`
   * when the rule needs one, client credentials on the token endpoint).
   */
  readonly ids: {
    readonly ids: IdValues;
    /** The operation's path with its ids in place. */
    readonly path: string;
    valid(): fc.Arbitrary<ApiRequest>;
    /** Valid request bodies of a JSON operation, ids and checksums filled in, each with its own reference. */
    validBodies(): fc.Arbitrary<Record<string, unknown>>;
  };
  /** The control API of a pacu mock. */
  readonly control: { readonly control: ControlApiClient };
  /** The run's lifecycle observation, holding payments of the operation. */
  readonly observation: { readonly observation: LifecycleObservation };
  /** Tokens asked for different scope sets, with what each answer echoed. */
  readonly grants: { readonly grants: readonly ScopeGrant[] };
  /**
   * The run's tokens so far: its oldest for the configured scopes with stated life left to use (when
   * none was refused early), and those refused with 401 while their stated life lasted.
   */
  readonly 'held-tokens': {
    readonly heldTokens: { readonly refusedEarly: EarlyRefusal } | { readonly oldest: IssuedToken };
  };
}

type Intersect<U> = (U extends unknown ? (value: U) => void : never) extends (value: infer I) => void
  ? I
  : never;

/**
 * Everything a rule gets for one operation, resolved by the runner: a rule reads "given, send,
 * judge" and never checks for a missing token or id itself. Typed by the needs it declares.
 */
export type RuleKit<N extends Need = Need> = KitBase & Intersect<KitByNeed[N]>;

/** One conformance rule, checked once per operation it applies to. */
export interface Rule<N extends Need = Need> {
  readonly id: string;
  readonly category: Exclude<RuleCategory, 'contract'>;
  /** One line: what the rule checks. */
  readonly title: string;
  /** Whether it applies to the operation, read from the operation's spec (never a list of ids). */
  appliesTo(operation: OperationSpec<string>): boolean;
  /** What the runner must resolve first; a need it cannot meet makes the rule skipped, with the reason. */
  readonly needs: readonly N[];
  /** `documented` when the interface description states it for this operation, else `strict`. */
  profileFor(operation: OperationSpec<string>): Profile;
  /**
   * Judges what the run has done so far (the tokens it was issued): runs after the other rules, before
   * any rule moves the target's clock.
   */
  readonly late?: boolean;
  /** Moves the target's clock: runs alone, after every other rule but the `last` ones. */
  readonly exclusive?: boolean;
  /** Judges what the other rules received: runs after all of them, the exclusive ones too. */
  readonly last?: boolean;
  /**
   * Its cases must really reach the target each time (a replay, concurrent duplicates): its
   * references are its own and no answer another rule received stands in for one it sends.
   * Other rules share: a request two rules make is sent once and both judge its answer.
   */
  readonly repeats?: boolean;
  /**
   * Judges every answer any rule receives on an operation it applies to (a `last` rule reads what
   * it found with `kit.observed()`): why the answer breaks the rule, undefined when it keeps it,
   * or `'not-judged'` when it says nothing about this rule.
   */
  observe?(
    response: ApiResponse,
    context: { readonly spec: Spec<string>; readonly operation: string },
  ): string | undefined | 'not-judged';
  /** Checked under any profile when true (the user opted in, e.g. by giving a webhook receiver). */
  optedIn?(config: TargetConfig): boolean;
  run(kit: RuleKit<N>): Promise<RuleOutcome>;
}

/** A rule, its kit typed by the needs it lists. */
export const defineRule = <const N extends Need>(rule: Rule<N>): Rule => rule;

/** The operations of `spec` the rule applies to, in the spec's order. */
export const operationsOf = (rule: Rule, spec: Spec<string>): string[] =>
  spec.operations.filter((operation) => rule.appliesTo(operation)).map((operation) => operation.id);
