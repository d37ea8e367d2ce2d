import type { RoutedExchange } from '../../../http/index.ts';
import type { JSONSchema7, OperationId, Spec } from '../../../spec/index.ts';
import type { PrismRequestCheck } from '../../prism-adapter.ts';
import type { LearnedReport, MockClient } from '../../types.ts';
import { type Behaviour, moneyKeysOf, pacuBehaviour, timestampKeysOf } from '../behaviour.ts';
import type { CheckedExchange } from '../from-recording.ts';
import { newId as pacuId } from '../random.ts';
import type { MockState } from '../state.ts';
import { idMaker } from './id-form.ts';
import { learnAnswers } from './learn-answers.ts';
import { type Decided, learnBounds } from './learn-bounds.ts';
import { learnLifecycles } from './learn-lifecycle.ts';
import { learnPagingOf } from './learn-paging.ts';
import { learnPathVariants } from './learn-paths.ts';
import { learnRecords } from './learn-records.ts';
import { learnRefusals } from './learn-refusals.ts';
import { learnScopes } from './learn-scopes.ts';
import { type ReportDraft, reportDraft } from './learned-report.ts';
import { interfaceNames } from './refusal-kinds.ts';
import { entryOf, sortSamples } from './samples.ts';
import { createScratchMock } from './scratch-mock.ts';
import { tokenScopes } from './token-scopes.ts';

export interface LearnInput {
  readonly spec: Spec;
  readonly checked: readonly CheckedExchange[];
  /** The recording's name in the report. */
  readonly source: string;
  /** A fresh copy of the state the recording seeds, for the scratch mock. */
  readonly state: () => MockState;
  /** The client the scratch mock sends recorded requests as. */
  readonly client: MockClient;
  /** Prism's request check, loaded. */
  readonly checkRequest: PrismRequestCheck;
}

export interface Learned {
  readonly behaviour: Behaviour;
  readonly report: LearnedReport;
}

/** The path the sandbox serves the interface under: everything up to its version segment. */
function learnBasePath(spec: Spec, checked: readonly CheckedExchange[], report: ReportDraft): string {
  const counts = new Map<string, number[]>();
  for (const { exchange } of checked) {
    const path = new URL(exchange.entry.request.url).pathname;
    const at = path.indexOf(`${spec.basePath}/`);
    if (at < 0) continue;
    const base = path.slice(0, at + spec.basePath.length);
    counts.set(base, [...(counts.get(base) ?? []), entryOf(exchange)]);
  }
  const [best] = [...counts].sort((a, b) => b[1].length - a[1].length);
  const about = 'the path the interface is served under';
  if (!best) {
    report.kept('basePath', about, spec.basePath, spec.basePath);
    return spec.basePath;
  }
  for (const [base, entries] of counts)
    if (base !== best[0]) report.unlearned(entries, `served under ${base}, not ${best[0]} as most exchanges`);
  report.learned('basePath', about, best[0], best[0], best[1]);
  return best[0];
}

/** pacu's own bounds of an amount: the spec's Amount schema (exclusiveMinimum and maximum). */
function decidedAmount(spec: Spec): Decided {
  const schema = (spec.document as { components?: { schemas?: Record<string, JSONSchema7> } }).components
    ?.schemas?.Amount;
  const members = [schema ?? {}, ...((schema?.allOf ?? []) as JSONSchema7[])];
  const pick = (name: 'exclusiveMinimum' | 'maximum', fallback: number) =>
    members.map((member) => member[name]).find((value): value is number => typeof value === 'number') ??
    fallback;
  return { above: pick('exclusiveMinimum', 0), max: pick('maximum', Number.POSITIVE_INFINITY) };
}

/** What the recording showed nothing of in the requests a sandbox let be: pacu's decisions. */
function keptLeniency(behaviour: Behaviour, report: ReportDraft): void {
  if (behaviour.bearerOptional.size === 0)
    report.kept(
      'bearer',
      'which operations need a bearer token',
      'all',
      'every operation but the token endpoint',
    );
  if (behaviour.scopeOptional.size === 0)
    report.kept(
      'scope',
      'which scope each operation needs',
      'by resource',
      'us_account for payments and accounts, card for cards',
    );
  if (!behaviour.anyContentType)
    report.kept('request.contentType', 'JSON bodies under another Content-Type', false, 'refused');
  if (Object.keys(behaviour.optionalFields).length === 0)
    report.kept(
      'required',
      'which request fields are required',
      'pacu',
      "the description's, and pacu's decisions",
    );
  if (behaviour.reusedReference === 'refused')
    report.kept(
      'reusedReference',
      'a transfer reference used again with another body',
      'refused',
      'refused (see refusal.reused-reference)',
    );
}

/**
 * Learn every choice the description leaves open that the recording shows (paths, headers, tokens,
 * messages, forms, record shapes, paging; refusals through a scratch pacu mock). What it shows
 * nothing of stays pacu's; what contradicts the description is reported (docs/decisions/141).
 */
export function learnFromRecording(input: LearnInput): Learned {
  const { spec, checked } = input;
  const report = reportDraft();
  for (const { exchange, problem } of checked)
    if (problem)
      report.contradiction(
        [entryOf(exchange)],
        `${exchange.entry.request.method} ${exchange.path} ${problem}: its records are not served`,
      );
  const basePath = learnBasePath(spec, checked, report);
  const samples = sortSamples(checked, basePath);
  const answers = learnAnswers(
    spec,
    samples,
    { money: moneyKeysOf(spec), timestamps: timestampKeysOf(spec) },
    report,
  );
  const records = learnRecords(
    spec,
    samples,
    { forms: answers.timestamps, fields: [...timestampKeysOf(spec)] },
    report,
  );
  const makers = new Map([...answers.ids].map(([kind, form]) => [kind, idMaker(form)]));
  // What a token of fewer scopes was refused, and what amounts and pages were: before the scratch
  // mock, so it refuses them as the sandbox did and their refusals are learned by kind and field.
  const scopesOf = tokenScopes(samples.all);
  const widest = Math.max(0, ...[...scopesOf.values()].map((scopes) => scopes.length));
  const withFullToken = (exchange: RoutedExchange) => (scopesOf.get(exchange)?.length ?? -1) >= widest;
  const scopes = learnScopes(samples.all, scopesOf, report);
  const behaviour = {
    ...pacuBehaviour(spec),
    basePath,
    contentType: answers.contentType,
    headers: answers.headers,
    tokenType: answers.tokenType ?? 'Bearer',
    tokenLifetimeSeconds: answers.tokenLifetimeSeconds,
    moneyTwoDecimals: answers.money === 'two-decimals',
    newId: (kind: string) => makers.get(kind)?.() ?? pacuId(kind),
    plans: records.plans,
    messages: answers.messages,
    replay: answers.replay,
    paging: learnPagingOf(spec, samples, withFullToken, report),
    p2p: records.p2p,
    bearerOptional: new Set<OperationId>(),
    scopeOptional: new Set<OperationId>(),
    scopes: scopes.scopes,
    grantsClientScopes: scopes.grantsClientScopes,
    amounts: learnBounds(samples.all, withFullToken, decidedAmount(spec), report),
    paths: learnPathVariants(spec, samples.all, basePath, report),
    lifecycles: learnLifecycles(samples.all, report),
    optionalFields: {} as Partial<Record<OperationId, string[]>>,
    anyContentType: false,
    reusedReference: 'refused' as Behaviour['reusedReference'],
  };
  const scratch = createScratchMock({ ...input, state: input.state(), behaviour });
  const names = interfaceNames(spec, [behaviour.paging.position, behaviour.paging.size]);
  const refusals = learnRefusals(samples.all, names, scratch, behaviour, report);
  keptLeniency(behaviour, report);
  return {
    behaviour: { ...behaviour, refusal: refusals.refusal },
    report: {
      format: 'pacu-learned',
      version: 1,
      recording: input.source,
      exchanges: checked.length,
      choices: report.choices,
      contradictions: report.contradictions,
      unlearned: report.notes,
    },
  };
}
