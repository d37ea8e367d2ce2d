import type { OperationId, Profile, Spec } from '../spec/index.ts';
import type { ApiClient } from './api-client.ts';
import type { ApiRequest, ApiResponse } from './api-request.ts';
import type { RuleCategory } from './report.ts';
import type { TargetConfig, TargetIds } from './target-config.ts';
import type { TokenSource } from './token-source.ts';

/** The ids rules use: the user's, plus any pacu found on the target itself (a user, an account). */
export interface ResolvedIds extends TargetIds {
  /** Where each id came from, so a skip reason can say which flag to pass. */
  readonly discovered: readonly string[];
}

/** Everything a rule sees while it runs: the spec, the target and the fast-check parameters. */
export interface RuleContext {
  readonly spec: Spec;
  readonly api: ApiClient;
  readonly config: TargetConfig;
  readonly profile: Profile;
  readonly ids: ResolvedIds;
  readonly tokens: TokenSource;
  readonly seed: number;
  readonly numRuns: number;
  /** Set when replaying one case: the fast-check path of the counterexample. */
  readonly path?: string;
  /** Random per run, never part of a generated input: keeps references fresh across runs. */
  readonly nonce: string;
}

/** The judgement on one exchange (or a few): fine, or why not with the evidence. */
export type Verdict =
  | { readonly ok: true }
  | {
      readonly ok: false;
      readonly reason: string;
      readonly request: ApiRequest;
      readonly response?: ApiResponse;
    };

export const PASS: Verdict = { ok: true };

export type RuleOutcome =
  | { readonly status: 'passed'; readonly runs: number }
  | { readonly status: 'skipped'; readonly reason: string }
  | {
      readonly status: 'failed';
      readonly runs: number;
      readonly reason: string;
      readonly request: ApiRequest;
      readonly response?: ApiResponse;
      readonly seed?: number;
      readonly path?: string;
      readonly counterexample?: unknown;
    };

/** A rule needs something the target configuration lacks: report it skipped, saying what to pass. */
export class Skip {
  constructor(readonly reason: string) {}
}

export const skipped = (reason: string): RuleOutcome => ({ status: 'skipped', reason });

/** One conformance rule, checked once per operation it covers. */
export interface Rule {
  readonly id: string;
  readonly category: Exclude<RuleCategory, 'contract'>;
  /** One line: what the rule checks. */
  readonly title: string;
  readonly operations: readonly OperationId[];
  /** `documented` when the interface description states it for this operation, else `strict`. */
  profileFor(operation: OperationId): Profile;
  /** Moves the target's clock: runs alone, after every other rule. */
  readonly exclusive?: boolean;
  /** Checked under any profile when true (the user opted in, e.g. by giving a webhook receiver). */
  optedIn?(context: RuleContext): boolean;
  run(context: RuleContext, operation: OperationId): Promise<RuleOutcome>;
}

/** The usual profile split: documented on the listed operations, strict elsewhere. */
export function documentedOn(...operations: OperationId[]): (operation: OperationId) => Profile {
  return (operation) => (operations.includes(operation) ? 'documented' : 'strict');
}
