import type { CheckId, Severity } from './checks.ts';

export type { Severity } from './checks.ts';

/** Whose words changed: the interface description's, or one of pacu's `x-pacu-decision` marks. */
export type Origin = 'description' | 'decision';

/**
 * Which way the data flows, seen from a client: `request` is what it sends (bodies, parameters),
 * `response` what it reads (responses and webhook payloads), `document` the rest (schemes, scopes).
 */
export type Side = 'request' | 'response' | 'document';

/** The operation a change sits in: an HTTP operation of `paths`, or a webhook event. */
export type OperationRef =
  | { readonly kind: 'operation'; readonly id?: string; readonly method: string; readonly path: string }
  | { readonly kind: 'webhook'; readonly event: string; readonly id?: string };

/** Who uses what a change touches: a consumer's pact interaction, or traffic the mock recorded. */
export interface Use {
  readonly source: 'pact' | 'coverage';
  /** The pact's consumer name, or the coverage file. */
  readonly consumer: string;
  /** The pact interaction's description, or what the coverage counted (`200 ×12`). */
  readonly detail: string;
}

/** One difference between the old and the new description, judged for the old one's clients. */
export interface Change {
  readonly check: CheckId;
  readonly severity: Severity;
  readonly origin: Origin;
  readonly side: Side;
  /** Where in the (dereferenced) description, as a JSON path: `$.paths['/users'].get.responses['200']…`. */
  readonly path: string;
  readonly operation?: OperationRef;
  /** The response status the change is in (`200`, `default`). */
  readonly status?: string;
  /** The body field (`$.data.reference`) or parameter (`query page`) the change is about. */
  readonly field?: string;
  /** One sentence for a person: what changed and whom it breaks. */
  readonly message: string;
  /** The description's words the verdict rests on, where they are not the changed schema's own. */
  readonly cites?: readonly string[];
  readonly before?: unknown;
  readonly after?: unknown;
  /** Filled when consumers are known (pacts, coverage): who uses what this change touches. */
  readonly usedBy?: readonly Use[];
}

/** What consumers use, read from their pacts or from the mock's coverage report. */
export interface UsageRecord {
  readonly source: 'pact' | 'coverage';
  readonly consumer: string;
  readonly detail: string;
  /** What was called: a method and a concrete path (a pact's), an operationId or a webhook event (coverage's). */
  readonly target:
    | { readonly method: string; readonly path: string }
    | { readonly operationId: string }
    | { readonly webhook: string };
  /** The response status seen; undefined when any status counts. */
  readonly status?: string;
  /** Body fields sent (`$.reference`); undefined when not known (coverage): every field counts. */
  readonly requestFields?: readonly string[];
  /** Body fields read; undefined when not known. */
  readonly responseFields?: readonly string[];
}

/** When `pacu diff` fails: on a breaking change, on a risky or breaking one, or on a breaking change a known consumer uses. */
export type FailOn = 'breaking' | 'risky' | 'used';

export interface DiffOptions {
  /**
   * The gate: exit 1 (and `failed: true`) on a change at or above this level.
   * @default 'breaking'
   */
  readonly failOn?: FailOn;
  /**
   * `documented`: changes of pacu's decisions are reported but do not fail the run; `strict`: they do.
   * @default 'documented'
   */
  readonly profile?: 'documented' | 'strict';
  /** What consumers use; with it, each breaking change lists its users. @default [] */
  readonly usage?: readonly UsageRecord[];
}

export type ResolvedDiffOptions = Required<DiffOptions>;

export const DIFF_DEFAULTS: ResolvedDiffOptions = Object.freeze({
  failOn: 'breaking',
  profile: 'documented',
  usage: [],
});

/** An OpenAPI description to compare: a file (YAML or JSON), or an already parsed document. */
export type DescriptionInput = string | { readonly label: string; readonly document: unknown };

export interface DiffSummary {
  readonly breaking: number;
  readonly risky: number;
  readonly safe: number;
  /** Breaking changes some known consumer uses; undefined when no consumers were given. */
  readonly used?: number;
  /** Changes that count for the gate (pacu's decisions only count under `strict`). */
  readonly gating: number;
}

/** The verdict of one `diffSpecs` run: every change, and whether the gate failed. */
export interface DiffReport {
  readonly old: string;
  readonly new: string;
  readonly options: Omit<ResolvedDiffOptions, 'usage'> & { readonly consumersKnown: boolean };
  readonly changes: readonly Change[];
  readonly summary: DiffSummary;
  readonly failed: boolean;
}
