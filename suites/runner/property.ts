import fc from 'fast-check';
import { PacuError } from '../../spec/index.ts';
import type { RuleOutcome, Verdict } from '../rules/rule.ts';

/** fast-check parameters of one check: the run's seed and count, and the path when replaying one case. */
export interface PropertyParameters {
  readonly seed: number;
  readonly numRuns: number;
  readonly path?: string;
}

type FailedVerdict = Extract<Verdict, { ok: false }>;

/** Told before each case is judged: its fast-check path (replayable with the seed) and its input. */
export type OnCase = (path: string, input: unknown) => void;

/**
 * The fast-check path of each case as it runs, mirroring fast-check's runner: the n-th generated value
 * is `n`; after a failure at path p, its shrink candidates are `p:0`, `p:1`…
 */
function casePaths(): { next(): string; failed(): void } {
  const failedAt: number[] = [];
  let index = -1;
  return {
    next() {
      index += 1;
      return [...failedAt, index].join(':');
    },
    failed() {
      failedAt.push(index);
      index = -1;
    },
  };
}

/**
 * Run `judge` on generated inputs with the run's seed and count; on a failure fast-check shrinks
 * the input and the outcome carries the last failing exchange, which is the shrunk one (fast-check
 * only moves to a smaller case when that case fails too). With `context.path` set it replays
 * exactly that one case. `onCase` hears the path of every case before it is judged.
 */
export async function checkProperty<T>(
  context: PropertyParameters,
  arbitrary: fc.Arbitrary<T>,
  judge: (input: T) => Promise<Verdict>,
  onCase?: OnCase,
): Promise<RuleOutcome> {
  let lastFailure: FailedVerdict | undefined;
  const paths = casePaths();
  const replaying = context.path !== undefined;
  let judged = 0;
  const property = fc.asyncProperty(arbitrary, async (input) => {
    // A replay judges the case at its path only, not the values fast-check would try after it.
    if (replaying && judged > 0) return true;
    judged += 1;
    onCase?.(replaying ? (context.path ?? '') : paths.next(), input);
    const verdict = await judge(input);
    if (verdict.ok) return true;
    paths.failed();
    lastFailure = verdict;
    return false;
  });
  const details = await fc.check(property, {
    seed: context.seed,
    ...(replaying ? { numRuns: 1, path: context.path, endOnFailure: true } : { numRuns: context.numRuns }),
  });
  if (!details.failed) return { status: 'passed', runs: replaying ? judged : details.numRuns };
  // A usage problem (the target went away) is not a finding: let it reach the CLI.
  if (details.errorInstance instanceof PacuError) throw details.errorInstance;
  if (!lastFailure) {
    const error = details.errorInstance as Error | undefined;
    throw new Error(`pacu: a rule crashed: ${error?.message ?? String(details.errorInstance)}`, {
      cause: error,
    });
  }
  return {
    status: 'failed',
    runs: details.numRuns,
    reason: lastFailure.reason,
    request: lastFailure.request,
    ...(lastFailure.response ? { response: lastFailure.response } : {}),
    ...(lastFailure.profile ? { profile: lastFailure.profile } : {}),
    seed: details.seed,
    path: details.counterexamplePath ?? '',
    counterexample: details.counterexample?.[0],
  };
}

/** A fixed scenario (no generated input, at most a sample drawn with the run's seed): one verdict, one run. */
export async function checkOnce(seed: number, judge: () => Promise<Verdict>): Promise<RuleOutcome> {
  const verdict = await judge();
  if (verdict.ok) return { status: 'passed', runs: 1 };
  return {
    status: 'failed',
    runs: 1,
    reason: verdict.reason,
    request: verdict.request,
    ...(verdict.response ? { response: verdict.response } : {}),
    ...(verdict.profile ? { profile: verdict.profile } : {}),
    seed,
  };
}
