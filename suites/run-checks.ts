import { createHash, randomBytes } from 'node:crypto';
import { ConfigError, loadSpec, type OperationId, type Profile, type Spec } from '../spec/index.ts';
import { createApiClient } from './api-client.ts';
import { assertTargetReachable } from './assert-reachable.ts';
import { buildReport, type ResultDraft } from './build-report.ts';
import { RULES } from './catalogue.ts';
import { formatFailureId, parseFailureId } from './failure-id.ts';
import { createRedactor } from './redaction.ts';
import type { Report, RuleResult } from './report.ts';
import { resolveIds } from './resolve-ids.ts';
import type { Rule, RuleContext, RuleOutcome } from './rule.ts';
import type { TargetConfig } from './target-config.ts';
import { createTokenSource } from './token-source.ts';

/** Options of {@link runChecks}; everything but the target is optional. */
export interface CheckOptions {
  readonly target: TargetConfig;
  /** @default 'documented' */
  readonly profile?: Profile;
  /** fast-check seed. @default a random one (printed in the report) */
  readonly seed?: number;
  /** Generated cases per property. @default 100 */
  readonly runs?: number;
  /** Rule × operation checks in flight at once. @default 4 */
  readonly concurrency?: number;
  /** Only these rule ids. @default every rule */
  readonly rules?: readonly string[];
  /** Rerun exactly the case of this failure id (`<rule>/<operation>[/<seed>/<path>]`). */
  readonly replay?: string;
  /** @default the spec pacu ships */
  readonly spec?: Spec;
  /** Called when a check starts and when it ends (for progress lines). */
  readonly onProgress?: (event: ProgressEvent) => void;
}

export type ProgressEvent =
  | {
      readonly kind: 'start';
      readonly rule: string;
      readonly operation: OperationId;
      readonly index: number;
      readonly total: number;
    }
  | { readonly kind: 'end'; readonly result: RuleResult; readonly index: number; readonly total: number };

export const CHECK_DEFAULTS = { profile: 'documented', runs: 100, concurrency: 4 } as const;

interface Task {
  readonly rule: Rule;
  readonly operation: OperationId;
}

function selectTasks(options: CheckOptions): { tasks: Task[]; seed?: number; path?: string } {
  if (options.replay) {
    const key = parseFailureId(options.replay);
    const rule = RULES.find((candidate) => candidate.id === key.ruleId);
    if (!rule?.operations.includes(key.operation))
      throw new ConfigError(`pacu: no rule ${key.ruleId} on ${key.operation} to replay`);
    return {
      tasks: [{ rule, operation: key.operation }],
      ...(key.seed !== undefined ? { seed: key.seed, path: key.path } : {}),
    };
  }
  const unknown = (options.rules ?? []).filter((id) => !RULES.some((rule) => rule.id === id));
  if (unknown.length > 0) throw new ConfigError(`pacu: unknown rule ${unknown.join(', ')}`);
  const rules = options.rules ? RULES.filter((rule) => options.rules?.includes(rule.id)) : RULES;
  return { tasks: rules.flatMap((rule) => rule.operations.map((operation) => ({ rule, operation }))) };
}

function toResult(task: Task, profile: Profile, outcome: RuleOutcome, durationMs: number): ResultDraft {
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
  if (outcome.status === 'passed') return { ...common, status: 'passed', runs: outcome.runs };
  const id = formatFailureId({
    ruleId: task.rule.id,
    operation: task.operation,
    ...(outcome.seed !== undefined && outcome.path !== undefined
      ? { seed: outcome.seed, path: outcome.path }
      : {}),
  });
  return {
    ...common,
    status: 'failed',
    runs: outcome.runs,
    failure: {
      id,
      reason: outcome.reason,
      request: outcome.request,
      ...(outcome.response ? { response: outcome.response } : {}),
      ...(outcome.seed !== undefined
        ? { seed: outcome.seed, path: outcome.path, counterexample: outcome.counterexample }
        : {}),
    },
  };
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
export async function runChecks(options: CheckOptions): Promise<Report> {
  const started = Date.now();
  const profile = options.profile ?? CHECK_DEFAULTS.profile;
  const selection = selectTasks(options);
  const seed = selection.seed ?? options.seed ?? randomBytes(4).readUInt32BE() >>> 1;
  await assertTargetReachable({ baseUrl: options.target.baseUrl });
  const spec = options.spec ?? (await loadSpec());
  const concurrency = options.concurrency ?? CHECK_DEFAULTS.concurrency;
  const redactor = createRedactor({
    ...(options.target.clientId !== undefined ? { clientId: options.target.clientId } : {}),
    ...(options.target.clientSecret !== undefined ? { clientSecret: options.target.clientSecret } : {}),
    others: options.target.webhook ? [options.target.webhook.secret] : [],
  });
  const api = createApiClient({
    baseUrl: options.target.baseUrl,
    connections: concurrency * 4,
    observe: (response) => redactor.observe(response),
  });
  const runNonce = randomBytes(4).toString('hex');
  try {
    const tokens = createTokenSource(api, options.target);
    const ids = await resolveIds(api, tokens, options.target.ids);
    const base = {
      spec,
      api,
      config: options.target,
      profile,
      ids,
      tokens,
      seed,
      numRuns: options.runs ?? CHECK_DEFAULTS.runs,
      ...(selection.path !== undefined ? { path: selection.path } : {}),
    };
    const results = new Map<Task, ResultDraft>();
    const total = selection.tasks.length;
    let done = 0;
    const runTask = async (task: Task): Promise<void> => {
      const index = done;
      options.onProgress?.({ kind: 'start', rule: task.rule.id, operation: task.operation, index, total });
      const context: RuleContext = {
        ...base,
        nonce: createHash('sha256')
          .update(`${runNonce}/${task.rule.id}/${task.operation}`)
          .digest('hex')
          .slice(0, 10),
      };
      const ruleProfile = task.rule.profileFor(task.operation);
      const taskStarted = performance.now();
      const outcome: RuleOutcome =
        ruleProfile === 'strict' && profile === 'documented' && !task.rule.optedIn?.(context)
          ? {
              status: 'skipped',
              reason: 'a pacu decision, not in the description: checked with --profile strict',
            }
          : await task.rule.run(context, task.operation);
      const result = toResult(task, ruleProfile, outcome, performance.now() - taskStarted);
      results.set(task, result);
      options.onProgress?.({
        kind: 'end',
        result: redactor.redact(result) as RuleResult,
        index: done++,
        total,
      });
    };
    await pool(
      selection.tasks.filter((task) => !task.rule.exclusive),
      concurrency,
      runTask,
    );
    // Rules that move the target's clock run alone, last, so no other rule sees time jump.
    for (const task of selection.tasks.filter((candidate) => candidate.rule.exclusive)) await runTask(task);
    return buildReport({
      command: 'check',
      target: options.target.baseUrl,
      baseUrl: options.target.baseUrl,
      seed,
      profile,
      startedAt: new Date(started),
      results: selection.tasks.map((task) => results.get(task) as ResultDraft),
      redactor,
    });
  } finally {
    await api.close();
  }
}
