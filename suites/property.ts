import fc from 'fast-check';
import { PacuError } from '../spec/index.ts';
import type { RuleOutcome, Verdict } from './rule.ts';

/** fast-check parameters of one check: the run's seed and count, and the path when replaying one case. */
export interface PropertyParameters {
  readonly seed: number;
  readonly numRuns: number;
  readonly path?: string;
}

type FailedVerdict = Extract<Verdict, { ok: false }>;

/**
 * Run `judge` on generated inputs with the run's seed and count; on a failure fast-check shrinks
 * the input and the outcome carries the last failing exchange, which is the shrunk one (fast-check
 * only moves to a smaller case when that case fails too). With `context.path` set it replays
 * exactly that case and stops at its first failure.
 */
export async function checkProperty<T>(
  context: PropertyParameters,
  arbitrary: fc.Arbitrary<T>,
  judge: (input: T) => Promise<Verdict>,
): Promise<RuleOutcome> {
  let lastFailure: FailedVerdict | undefined;
  const property = fc.asyncProperty(arbitrary, async (input) => {
    const verdict = await judge(input);
    if (verdict.ok) return true;
    lastFailure = verdict;
    return false;
  });
  const details = await fc.check(property, {
    seed: context.seed,
    numRuns: context.numRuns,
    ...(context.path !== undefined ? { path: context.path, endOnFailure: true } : {}),
  });
  if (!details.failed) return { status: 'passed', runs: details.numRuns };
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

/** A fixed scenario (no generated input): one verdict, reported as one run. */
export async function checkOnce(judge: () => Promise<Verdict>): Promise<RuleOutcome> {
  const verdict = await judge();
  if (verdict.ok) return { status: 'passed', runs: 1 };
  return {
    status: 'failed',
    runs: 1,
    reason: verdict.reason,
    request: verdict.request,
    ...(verdict.response ? { response: verdict.response } : {}),
    ...(verdict.profile ? { profile: verdict.profile } : {}),
  };
}
