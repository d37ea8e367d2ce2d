import { ConfigError, PacuError, type Profile, type Spec } from '../../spec/index.ts';
import { buildReport, type ResultDraft } from '../report/build-report.ts';
import type { Learned, LearnedBound, Report, RuleCategory } from '../report/report.ts';
import { RULES } from '../rules/catalogue.ts';
import { operationsOf, type Rule, type RuleOutcome } from '../rules/rule.ts';
import { InconclusiveExchange } from '../target/inconclusive.ts';
import { createPacer, type PacingLearned } from '../target/pacer.ts';
import {
  DEFAULT_SCOPES,
  TARGET_ID_KEYS,
  type TargetConfig,
  type TargetIds,
} from '../target/target-config.ts';
import { targetRedactor } from '../target/target-redactor.ts';
import { type CheckOptions, type ResolvedCheckOptions, resolveCheckOptions } from './check-options.ts';
import { formatFailureId, parseFailureId } from './failure-id.ts';
import { resolveNeeds } from './resolve-needs.ts';
import { selectRules } from './rule-selection.ts';
import { openRunContext, type RunContext } from './run-context.ts';
import type { Setting } from './setting.ts';

/** How often a run tells its progress (requests sent, checks done). */
const TICK_MS = 1000;

/** Rule × operation tasks started at once; what they send waits at the run's pacer. */
const TASKS_AT_ONCE = 64;

const sum = (drafts: readonly ResultDraft[], key: 'runs' | 'inconclusive'): number =>
  drafts.reduce((total, draft) => total + (draft[key] ?? 0), 0);

/** Too much of the run lost its answers to judge the target: a usage error (exit 2), the report attached. */
export class InconclusiveRun extends PacuError {
  constructor(
    message: string,
    readonly report: Report,
  ) {
    super('PACU_ERR_INCONCLUSIVE', message);
    this.name = 'InconclusiveRun';
  }
}

interface Task {
  readonly rule: Rule;
  readonly operation: string;
  /** Judge only what this rule's replayed case received (set on a `last` rule when replaying it). */
  readonly replayingCaseOf?: string;
}

function ruleOn(spec: Spec<string>, ruleId: string, operation: string): Rule {
  const rule = RULES.find((candidate) => candidate.id === ruleId);
  if (!rule || !operationsOf(rule, spec).includes(operation))
    throw new ConfigError(`pacu: no rule ${ruleId} on ${operation} to replay`);
  return rule;
}

function selectTasks(
  options: ResolvedCheckOptions,
  spec: Spec<string>,
): { tasks: Task[]; seed?: number; path?: string } {
  if (options.replay) {
    const key = parseFailureId(options.replay);
    const rule = ruleOn(spec, key.ruleId, key.operation);
    const replayed = {
      ...(key.seed !== undefined ? { seed: key.seed } : {}),
      ...(key.path ? { path: key.path } : {}),
    };
    if (!key.receivedBy) return { tasks: [{ rule, operation: key.operation }], ...replayed };
    if (!rule.last)
      throw new ConfigError(
        `pacu: ${key.ruleId} judges only its own cases; replay ${key.ruleId}/${key.operation}`,
      );
    // Rerun the case that received the answer, then judge what it received.
    const receiver = ruleOn(spec, key.receivedBy, key.operation);
    return {
      tasks: [
        { rule: receiver, operation: key.operation },
        { rule, operation: key.operation, replayingCaseOf: receiver.id },
      ],
      ...replayed,
    };
  }
  const rules = selectRules(RULES, options.rules, options.excludeRules);
  return {
    tasks: rules.flatMap((rule) => operationsOf(rule, spec).map((operation) => ({ rule, operation }))),
  };
}

function toResult(task: Task, ruleProfile: Profile, outcome: RuleOutcome, durationMs: number): ResultDraft {
  // A failure carries the profile of the assertion that failed: strict when only a decision broke.
  const profile =
    outcome.status === 'failed' && (outcome.profile === 'strict' || ruleProfile === 'strict')
      ? 'strict'
      : ruleProfile;
  const common = {
    id: task.rule.id,
    category: task.rule.category,
    operation: task.operation,
    profile,
    durationMs,
    title: task.rule.title,
  };
  if (outcome.status === 'skipped')
    return { ...common, status: 'skipped', runs: 0, skipReason: outcome.reason };
  if (outcome.status === 'inconclusive')
    return {
      ...common,
      status: 'skipped',
      runs: 0,
      inconclusive: outcome.inconclusive,
      skipReason: `inconclusive: no case got an answer to judge (${outcome.reason})`,
    };
  if (outcome.status === 'passed')
    return {
      ...common,
      status: 'passed',
      runs: outcome.runs,
      ...(outcome.inconclusive ? { inconclusive: outcome.inconclusive } : {}),
    };
  const id = formatFailureId({
    ruleId: task.rule.id,
    operation: task.operation,
    ...(outcome.seed !== undefined ? { seed: outcome.seed } : {}),
    ...(outcome.path !== undefined ? { path: outcome.path } : {}),
    ...(outcome.receivedBy !== undefined ? { receivedBy: outcome.receivedBy } : {}),
  });
  return {
    ...common,
    status: 'failed',
    runs: outcome.runs,
    failure: {
      id,
      reason: outcome.reason,
      profile,
      request: outcome.request,
      ...(outcome.response ? { response: outcome.response } : {}),
      ...(outcome.seed !== undefined
        ? { seed: outcome.seed, path: outcome.path, counterexample: outcome.counterexample }
        : {}),
    },
  };
}

/**
 * A failure under strict that no assertion labelled: judged again on the documented view (the same
 * rule and seed, documented inputs and schemas). When that passes, only pacu's decisions saw it.
 */
async function labelled(run: RunContext, task: Task, outcome: RuleOutcome): Promise<RuleOutcome> {
  if (outcome.status !== 'failed' || outcome.profile !== undefined || run.profile !== 'strict')
    return outcome;
  if (
    task.rule.profileFor(run.spec.operation(task.operation)) !== 'documented' ||
    task.rule.exclusive ||
    task.rule.last ||
    task.rule.late
  )
    return outcome;
  const { path: _replayed, ...rest } = run;
  const documented: RunContext = { ...rest, profile: 'documented' };
  const kit = await resolveNeeds(documented, task.rule, task.operation);
  if ('reason' in kit) return outcome;
  const again = await task.rule.run(kit).catch((error: unknown) => {
    if (error instanceof InconclusiveExchange) return undefined;
    throw error;
  });
  if (!again || again.status === 'inconclusive') return outcome;
  return { ...outcome, profile: again.status === 'passed' ? 'strict' : 'documented' };
}

/** A rule's outcome; a write its needs made that lost its answer leaves it inconclusive. */
async function outcomeOf(run: RunContext, task: Task): Promise<RuleOutcome> {
  try {
    const kit = await resolveNeeds(run, task.rule, task.operation, task.replayingCaseOf);
    return 'reason' in kit ? { status: 'skipped', reason: kit.reason } : await task.rule.run(kit);
  } catch (error) {
    if (error instanceof InconclusiveExchange)
      return { status: 'inconclusive', reason: error.message, inconclusive: 1 };
    throw error;
  }
}

/** Run `work` on every item with at most `limit` in flight. */
async function pool<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) await work(items[next++] as T);
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
}

/**
 * Check a target against every rule (or one replayed failure) and return the report. Findings are
 * data in the report; only usage problems (bad options, an unreachable target) throw.
 *
 * @example
 * const report = await runChecks({ target: resolveTargetConfig({ target: mock.url, ... }), runs: 20 });
 * report.summary.failed; // 0
 */
export async function runChecks(given: CheckOptions): Promise<Report> {
  const started = Date.now();
  const options = await resolveCheckOptions(given);
  const { profile, spec, word, concurrency } = options;
  const pacer = createPacer({ maxInFlight: concurrency, ...(options.rate ? { rate: options.rate } : {}) });
  const selection = selectTasks(options, spec);
  // A replayed failure id carries the seed of its run.
  const seed = selection.seed ?? options.seed;
  const redactor = targetRedactor(
    options.target,
    options.target.webhook ? [options.target.webhook.secret] : [],
  );
  const run = await openRunContext({
    spec,
    profile,
    config: options.target,
    seed,
    numRuns: options.runs,
    ...(selection.path !== undefined ? { path: selection.path } : {}),
    pacer,
    // The selected rules that judge every answer any rule receives (error-shape, content-type).
    observers: [...new Set(selection.tasks.map((task) => task.rule))].filter((rule) => rule.observe),
    redactor,
    word,
  });
  const results = new Map<Task, ResultDraft>();
  const total = selection.tasks.length;
  let done = 0;
  const ticking = options.onProgress
    ? setInterval(() => {
        const { sent, throttled } = pacer.stats;
        const inconclusive = [...results.values()].reduce((n, draft) => n + (draft.inconclusive ?? 0), 0);
        const traffic = { sent, throttled, inconclusive };
        options.onProgress?.({ kind: 'tick', done, total, traffic, elapsedMs: Date.now() - started });
      }, TICK_MS)
    : undefined;
  ticking?.unref();
  try {
    const runTask = async (task: Task): Promise<void> => {
      const index = done;
      options.onProgress?.({ kind: 'start', rule: task.rule.id, operation: task.operation, index, total });
      const taskStarted = performance.now();
      const outcome = await labelled(run, task, await outcomeOf(run, task));
      const result = toResult(
        task,
        task.rule.profileFor(spec.operation(task.operation)),
        outcome,
        performance.now() - taskStarted,
      );
      results.set(task, result);
      options.onProgress?.({ kind: 'end', result: redactor.redact(result), index: done++, total });
    };
    const phase = (task: Task): number =>
      task.rule.last ? 3 : task.rule.exclusive ? 2 : task.rule.late ? 1 : 0;
    const inPhase = (n: number): Task[] => selection.tasks.filter((task) => phase(task) === n);
    if (options.replay) {
      // In order: the replayed case first, then the rule that judges what that case received.
      for (const task of selection.tasks) await runTask(task);
    } else {
      // Every task at once: the pacer, not the task count, bounds what is in flight.
      await pool(inPhase(0), TASKS_AT_ONCE, runTask);
      // Rules that judge the run's own tokens run once the others are done, before the clock moves.
      await pool(inPhase(1), TASKS_AT_ONCE, runTask);
      // Rules that move the target's clock run alone, after the others, so none sees time jump mid-case.
      for (const task of inPhase(2)) await runTask(task);
      // Rules that judge what every other rule (and the lifecycle observation) received run last.
      await pool(inPhase(3), TASKS_AT_ONCE, runTask);
    }
    const drafts = selection.tasks.map((task) => results.get(task) as ResultDraft);
    if (!drafts.some((draft) => draft.status !== 'skipped')) {
      const reasons = [...new Set(drafts.map((draft) => draft.skipReason))];
      throw new ConfigError(
        `pacu: nothing was checked: every selected rule was skipped (${reasons.join('; ')})`,
      );
    }
    const traffic = { ...pacer.stats, inconclusive: sum(drafts, 'inconclusive') };
    const report = buildReport({
      command: 'check',
      target: options.target.baseUrl,
      baseUrl: options.target.baseUrl,
      seed,
      profile,
      startedAt: new Date(started),
      results: drafts,
      redactor,
      notes: runNotes(drafts, run.tokens.renewals),
      rerunFlags: rerunSettings(options.target, profile, run.ids).flatMap(([setting, value]) => [
        word(setting),
        value,
      ]),
      traffic,
      learned: learnedOf(run.bounds.bounds, pacer.learned),
    });
    const judged = sum(drafts, 'runs');
    if (
      report.summary.failed === 0 &&
      traffic.inconclusive > 0 &&
      traffic.inconclusive > options.maxInconclusive * (judged + traffic.inconclusive)
    )
      throw new InconclusiveRun(
        `pacu: ${traffic.inconclusive} of ${judged + traffic.inconclusive} cases were inconclusive (connections reset or timed out): too few answers to judge the target; is it overloaded? try --rate`,
        report,
      );
    return report;
  } finally {
    clearInterval(ticking);
    await run.close();
  }
}

/** What the run learned of the provider: bounds, and pacing's findings when it met a 429 or a 503. */
function learnedOf(bounds: readonly LearnedBound[], rate: PacingLearned): Learned {
  const paced = rate.perSecond !== undefined || rate.retryAfter.length > 0 || rate.unavailable > 0;
  return { bounds, ...(paced ? { rate } : {}) };
}

/** What the run says before any matrix: categories nothing was checked in, tokens renewed mid-run. */
function runNotes(drafts: readonly ResultDraft[], renewals: number): string[] {
  const notes: string[] = [];
  const categories = [...new Set(drafts.map((draft) => draft.category))] as RuleCategory[];
  for (const category of categories) {
    const cells = drafts.filter((draft) => draft.category === category);
    if (cells.every((cell) => cell.status === 'skipped'))
      notes.push(
        `${category}: nothing checked (${[...new Set(cells.map((cell) => cell.skipReason))].join('; ')})`,
      );
  }
  if (renewals > 0)
    notes.push(
      `the target answered 401 to a token pacu held ${renewals} time(s): pacu took a new token and retried before judging`,
    );
  return notes;
}

/** The non-secret settings that shaped the run, so a replay line reproduces it on its own. */
function rerunSettings(target: TargetConfig, profile: Profile, ids: TargetIds): [Setting, string][] {
  const settings: [Setting, string][] = [
    ['target', target.baseUrl],
    ['profile', profile],
  ];
  if (target.scopes.join(',') !== DEFAULT_SCOPES.join(','))
    settings.push(['scopes', target.scopes.join(',')]);
  for (const key of TARGET_ID_KEYS) {
    const value = ids[key];
    if (typeof value === 'string') settings.push([`ids.${key}`, value]);
  }
  if (target.controlUrl) settings.push(['controlUrl', target.controlUrl]);
  if (target.webhook?.receiverUrl) settings.push(['webhook.receiverUrl', target.webhook.receiverUrl]);
  return settings;
}
