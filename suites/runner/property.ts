import { AsyncLocalStorage } from 'node:async_hooks';
import fc from 'fast-check';
import { PacuError } from '../../spec/index.ts';
import type { RuleOutcome, Verdict } from '../rules/rule.ts';
import { InconclusiveExchange } from '../target/inconclusive.ts';

/** fast-check parameters of one check: the run's seed and count, and the path when replaying one case. */
export interface PropertyParameters {
  readonly seed: number;
  readonly numRuns: number;
  readonly path?: string;
  /** Cases judged at once (the run's pacer decides how many requests really fly). @default 1 */
  readonly parallel?: number;
  /** Judge each distinct input once (reads: the same request twice finds nothing new). @default false */
  readonly distinct?: boolean;
}

/**
 * A write drawn the same more than once (a token request, an account for the one user) is sent this
 * many times at most: its answers may differ, a hundred of them add nothing.
 */
const REPEATS_OF_ONE = 3;

/**
 * Cases a failure is shrunk through at most: a case may be a chain of writes, slow at a slow
 * provider, and a body that fails whatever it holds would otherwise be shrunk field by field, a long
 * string character by character, for minutes.
 */
const MAX_SHRINK_CASES = 16;

type FailedVerdict = Extract<Verdict, { ok: false }>;

/** Told before each case is judged: its fast-check path (replayable with the seed) and its input. */
export type OnCase = (path: string, input: unknown) => void;

/** The case being judged, for whatever it sends: an answer it receives names it for the replay line. */
export interface CurrentCase {
  readonly path: string;
  readonly input: unknown;
}

const cases = new AsyncLocalStorage<CurrentCase>();

/** The case whose judgement is running here, if any. */
export const currentCase = (): CurrentCase | undefined => cases.getStore();

/**
 * The fast-check path of each case as it runs, mirroring fast-check's runner: the n-th generated value
 * is `n`; after a failure at path p, its shrink candidates are `p:0`, `p:1`…
 */
function casePaths(start = 0): { next(): string; failed(): void } {
  const failedAt: number[] = [];
  let index = start - 1;
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

type Judged = { readonly verdict: Verdict } | { readonly inconclusive: string };

/** Judge one case with its path in scope; a lost answer makes it inconclusive, never a verdict. */
async function judgeCase<T>(
  path: string,
  input: T,
  judge: (input: T) => Promise<Verdict>,
  onCase?: OnCase,
): Promise<Judged> {
  onCase?.(path, input);
  try {
    return { verdict: await cases.run({ path, input }, () => judge(input)) };
  } catch (error) {
    if (error instanceof InconclusiveExchange) return { inconclusive: error.message };
    throw error;
  }
}

/** A key per input: two equal inputs would send the same requests, so the second finds nothing new. */
const keyOf = (input: unknown): string => JSON.stringify(input) ?? 'undefined';

/** Run `work` on every item, at most `limit` at once, in order of start. */
async function inParallel<T>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) await work(items[next++] as T);
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
}

function crashed(error: unknown): never {
  // A usage problem (the target went away) is not a finding: let it reach the CLI.
  if (error instanceof PacuError) throw error;
  const cause = error as Error | undefined;
  throw new Error(`pacu: a rule crashed: ${cause?.message ?? String(error)}`, { cause });
}

/**
 * Run `judge` on inputs drawn as fast-check draws them (same seed, same order), `parallel` at a time
 * and each distinct input once; a failure is shrunk by fast-check and the outcome carries the shrunk
 * exchange. With `context.path` it replays exactly that case; `onCase` hears each case's path first.
 */
export async function checkProperty<T>(
  context: PropertyParameters,
  arbitrary: fc.Arbitrary<T>,
  judge: (input: T) => Promise<Verdict>,
  onCase?: OnCase,
): Promise<RuleOutcome> {
  // An enumerated case's path (`e3`) is checkEach's to replay: no case of this property is it.
  if (context.path?.startsWith('e')) return { status: 'passed', runs: 0 };
  if (context.path !== undefined) return shrunk(context, arbitrary, judge, onCase, context.path, true);
  const inputs = fc.sample(arbitrary, { seed: context.seed, numRuns: context.numRuns });
  const seen = new Set<string>();
  const firsts = inputs.flatMap((input, index) => {
    const key = keyOf(input);
    if (seen.has(key)) return [];
    seen.add(key);
    return [{ input, index }];
  });
  const times = new Map<string, number>();
  const repeatsCapped = inputs.flatMap((input, index) => {
    const key = keyOf(input);
    const count = (times.get(key) ?? 0) + 1;
    times.set(key, count);
    return count <= REPEATS_OF_ONE ? [{ input, index }] : [];
  });
  const distinct = context.distinct ? firsts : repeatsCapped;
  let firstFailure: { readonly index: number; readonly verdict: FailedVerdict } | undefined;
  let judged = 0;
  let inconclusive = 0;
  let lastLost = '';
  await inParallel(distinct, context.parallel ?? 1, async ({ input, index }) => {
    // Past a failure only earlier cases still matter: the first failing one is what gets shrunk.
    if (firstFailure && firstFailure.index < index) return;
    const result = await judgeCase(String(index), input, judge, onCase).catch(crashed);
    if ('inconclusive' in result) {
      inconclusive += 1;
      lastLost = result.inconclusive;
      return;
    }
    judged += 1;
    if (!result.verdict.ok && (!firstFailure || index < firstFailure.index))
      firstFailure = { index, verdict: result.verdict };
  });
  if (!firstFailure) {
    if (judged === 0 && inconclusive > 0) return { status: 'inconclusive', reason: lastLost, inconclusive };
    return { status: 'passed', runs: judged, ...(inconclusive > 0 ? { inconclusive } : {}) };
  }
  const outcome = await shrunk(context, arbitrary, judge, onCase, String(firstFailure.index), false);
  if (outcome.status === 'failed') return outcome;
  // The case did not fail again when replayed (the target changed its mind): report it as it was seen.
  const { verdict, index } = firstFailure;
  return failedAt(verdict, judged, context.seed, String(index), inputs[index]);
}

/** The outcome of a case that failed as it was seen: its verdict, where it is and what it sent. */
function failedAt(
  verdict: FailedVerdict,
  runs: number,
  seed: number,
  path: string,
  counterexample: unknown,
): RuleOutcome {
  return {
    status: 'failed',
    runs,
    reason: verdict.reason,
    request: verdict.request,
    ...(verdict.response ? { response: verdict.response } : {}),
    ...(verdict.profile ? { profile: verdict.profile } : {}),
    seed,
    path,
    counterexample,
  };
}

/** fast-check from the case at `path`, one case at a time: a replay judges that case alone, else it shrinks. */
async function shrunk<T>(
  context: PropertyParameters,
  arbitrary: fc.Arbitrary<T>,
  judge: (input: T) => Promise<Verdict>,
  onCase: OnCase | undefined,
  path: string,
  replayOnly: boolean,
): Promise<RuleOutcome> {
  let lastFailure: FailedVerdict | undefined;
  const start = Number(path.split(':')[0]);
  const paths = replayOnly ? undefined : casePaths(start);
  let judged = 0;
  let lost: string | undefined;
  const property = fc.asyncProperty(arbitrary, async (input) => {
    // A replay judges the case at its path only, not the values fast-check would try after it.
    if (replayOnly && judged > 0) return true;
    // Shrinking starts from a failure: when the case no longer fails, the cases after it were judged already.
    if (!replayOnly && judged > 0 && lastFailure === undefined) return true;
    // Shrinking stops after so many cases, counted so the same seed shrinks to the same case.
    if (!replayOnly && judged > MAX_SHRINK_CASES) return true;
    judged += 1;
    const result = await judgeCase(paths ? paths.next() : path, input, judge, onCase);
    if ('inconclusive' in result) {
      lost = result.inconclusive;
      return true;
    }
    if (result.verdict.ok) return true;
    paths?.failed();
    lastFailure = result.verdict;
    return false;
  });
  const details = await fc.check(property, {
    seed: context.seed,
    path,
    ...(replayOnly ? { numRuns: 1, endOnFailure: true } : { numRuns: context.numRuns }),
  });
  if (!details.failed) {
    if (replayOnly && lost !== undefined) return { status: 'inconclusive', reason: lost, inconclusive: 1 };
    return { status: 'passed', runs: judged };
  }
  if (!lastFailure) crashed(details.errorInstance);
  return {
    status: 'failed',
    runs: details.numRuns,
    reason: lastFailure.reason,
    request: lastFailure.request,
    ...(lastFailure.response ? { response: lastFailure.response } : {}),
    ...(lastFailure.profile ? { profile: lastFailure.profile } : {}),
    seed: details.seed,
    path: details.counterexamplePath ?? path,
    counterexample: details.counterexample?.[0],
  };
}

/** The path of the `index`-th enumerated case: `e3`, never a fast-check path. */
const enumerated = (index: number): string => `e${index}`;

/**
 * Judge every case of a small, known list once, side by side (enumerated rather than drawn: a few
 * draws could miss one, many would repeat). A failure is the first failing case, its path `e<index>`;
 * replaying that path judges that case alone, and a fast-check path judges none of them.
 */
export async function checkEach<T>(
  context: PropertyParameters,
  list: readonly T[],
  judge: (input: T) => Promise<Verdict>,
): Promise<RuleOutcome> {
  const replayed = context.path === undefined ? undefined : /^e(\d+)$/.exec(context.path)?.[1];
  if (context.path !== undefined && replayed === undefined) return { status: 'passed', runs: 0 };
  const chosen = list
    .map((input, index) => ({ input, index }))
    .filter(({ index }) => replayed === undefined || index === Number(replayed));
  const failures: { index: number; verdict: FailedVerdict }[] = [];
  let judged = 0;
  let inconclusive = 0;
  let lastLost = '';
  await inParallel(chosen, context.parallel ?? 1, async ({ input, index }) => {
    const result = await judgeCase(enumerated(index), input, judge).catch(crashed);
    if ('inconclusive' in result) {
      inconclusive += 1;
      lastLost = result.inconclusive;
    } else if (result.verdict.ok) judged += 1;
    else {
      judged += 1;
      failures.push({ index, verdict: result.verdict });
    }
  });
  const [first] = failures.sort((a, b) => a.index - b.index);
  if (first) {
    const { verdict, index } = first;
    return failedAt(verdict, judged, context.seed, enumerated(index), list[index]);
  }
  if (judged === 0 && inconclusive > 0) return { status: 'inconclusive', reason: lastLost, inconclusive };
  return { status: 'passed', runs: judged, ...(inconclusive > 0 ? { inconclusive } : {}) };
}

/** A fixed scenario (no generated input, at most a sample drawn with the run's seed): one verdict, one run. */
export async function checkOnce(seed: number, judge: () => Promise<Verdict>): Promise<RuleOutcome> {
  let verdict: Verdict;
  try {
    verdict = await judge();
  } catch (error) {
    if (error instanceof InconclusiveExchange)
      return { status: 'inconclusive', reason: error.message, inconclusive: 1 };
    throw error;
  }
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
