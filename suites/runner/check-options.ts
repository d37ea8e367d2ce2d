import { randomBytes } from 'node:crypto';
import { loadSpec, type Profile, type Spec } from '../../spec/index.ts';
import type { RuleResult, Traffic } from '../report/report.ts';
import { PACER_DEFAULTS } from '../target/pacer.ts';
import type { TargetConfig } from '../target/target-config.ts';
import { optionWording, type Wording } from './setting.ts';

/** Options of `runChecks`; everything but the target is optional. */
export interface CheckOptions {
  readonly target: TargetConfig;
  /** @default CHECK_DEFAULTS.profile ('documented') */
  readonly profile?: Profile;
  /** fast-check seed. @default a random one (printed in the report) */
  readonly seed?: number;
  /** Generated cases per property. @default CHECK_DEFAULTS.runs (100) */
  readonly runs?: number;
  /** Requests in flight at most; below it the window adapts to the target's round trip. @default CHECK_DEFAULTS.concurrency (64) */
  readonly concurrency?: number;
  /** Requests per second at most, shared by every rule (a token bucket). @default unlimited (a 429 still slows the run) */
  readonly rate?: number;
  /** Share of cases that may be inconclusive (lost answers) before the run cannot judge. @default CHECK_DEFAULTS.maxInconclusive (0.1) */
  readonly maxInconclusive?: number;
  /** Only the rules these name: rule ids, categories (`auth`) or globs over ids (`idempotency.*`). @default every rule */
  readonly rules?: readonly string[];
  /** Leave out the rules these name (ids, categories or globs), after `rules`. @default none */
  readonly excludeRules?: readonly string[];
  /** Rerun exactly the case of this failure id (`<rule>[@<rule>]/<operation>[/<seed>[/<path>]]`). */
  readonly replay?: string;
  /** The description to judge against. @default the spec pacu ships */
  readonly spec?: Spec<string>;
  /** How skip reasons, errors and rerun settings name a setting. @default CHECK_DEFAULTS.word: its option, e.g. `target.ids.cardId` */
  readonly word?: Wording;
  /** Called when a check starts and when it ends (for progress lines). */
  readonly onProgress?: (event: ProgressEvent) => void;
}

export type ProgressEvent =
  | {
      readonly kind: 'start';
      readonly rule: string;
      readonly operation: string;
      readonly index: number;
      readonly total: number;
    }
  | {
      readonly kind: 'end';
      readonly result: Pick<RuleResult, 'id' | 'operation' | 'status' | 'runs' | 'skipReason'>;
      readonly index: number;
      readonly total: number;
    }
  /** Every second while the run lasts: checks done, what was sent, how long it has run. */
  | {
      readonly kind: 'tick';
      readonly done: number;
      readonly total: number;
      readonly traffic: Omit<Traffic, 'retried'>;
      readonly elapsedMs: number;
    };

/** The defaults of {@link CheckOptions}, read by `runChecks` and by `pacu check --help`. */
export const CHECK_DEFAULTS = {
  profile: 'documented',
  runs: 100,
  concurrency: PACER_DEFAULTS.maxInFlight,
  maxInconclusive: 0.1,
  word: optionWording,
} as const satisfies Partial<Record<keyof CheckOptions, unknown>>;

/** {@link CheckOptions} with every default in place: what one run reads (fast-check's QualifiedParameters). */
export interface ResolvedCheckOptions
  extends Required<
      Pick<
        CheckOptions,
        'target' | 'profile' | 'seed' | 'runs' | 'concurrency' | 'maxInconclusive' | 'spec' | 'word'
      >
    >,
    Pick<CheckOptions, 'rate' | 'rules' | 'excludeRules' | 'replay' | 'onProgress'> {}

/** Resolve the options once, at the boundary: the spec loaded, a seed drawn, every default applied. */
export async function resolveCheckOptions(options: CheckOptions): Promise<ResolvedCheckOptions> {
  return {
    ...options,
    profile: options.profile ?? CHECK_DEFAULTS.profile,
    seed: options.seed ?? randomBytes(4).readUInt32BE() >>> 1,
    runs: options.runs ?? CHECK_DEFAULTS.runs,
    concurrency: options.concurrency ?? CHECK_DEFAULTS.concurrency,
    maxInconclusive: options.maxInconclusive ?? CHECK_DEFAULTS.maxInconclusive,
    spec: options.spec ?? (await loadSpec()),
    word: options.word ?? CHECK_DEFAULTS.word,
  };
}
