import type { RoutedExchange } from '../../../http/index.ts';
import type { JSONSchema7, OperationId, Spec } from '../../../spec/index.ts';
import type { PrismRequestCheck } from '../../prism-adapter.ts';
import type { LearnedReport, MockClient } from '../../types.ts';
import {
  type Behaviour,
  moneyKeysOf,
  PACU_PAGING,
  type Paging,
  pacuBehaviour,
  timestampKeysOf,
} from '../behaviour.ts';
import type { CheckedExchange } from '../from-recording.ts';
import { newId as pacuId } from '../random.ts';
import type { MockState } from '../state.ts';
import { idMaker } from './id-form.ts';
import { learnAnswers } from './learn-answers.ts';
import { type Decided, learnBounds } from './learn-bounds.ts';
import { learnLifecycles } from './learn-lifecycle.ts';
import { learnPathVariants } from './learn-paths.ts';
import { learnRecords } from './learn-records.ts';
import { learnRefusals } from './learn-refusals.ts';
import { learnScopes } from './learn-scopes.ts';
import { type ReportDraft, reportDraft } from './learned-report.ts';
import { learnPaging, learnPagingLimits, type PageSample, type PageTry } from './paging.ts';
import { interfaceNames } from './refusal-kinds.ts';
import { dataOf, entryOf, type Samples, sortSamples } from './samples.ts';
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

/** `namesSent`: whether a recorded request used the query names, or they are pacu's. */
function describePaging(paging: Paging, namesSent = true): string {
  const position =
    paging.style === 'page' ? `${paging.position} (from ${paging.first})` : `${paging.position} (an offset)`;
  return `${position} and ${paging.size}${namesSent ? '' : " (names never sent: pacu's)"}, ${paging.defaultSize} a page`;
}

function learnPagingOf(
  spec: Spec,
  samples: Samples,
  withFullToken: (exchange: RoutedExchange) => boolean,
  report: ReportDraft,
): Paging {
  const pages: PageSample[] = (samples.success.get('listUsers') ?? []).flatMap((exchange) => {
    const data = dataOf(exchange);
    const items = data?.items;
    const numbers = [data?.page, data?.total_count, data?.total_pages];
    if (!Array.isArray(items) || !numbers.every(Number.isInteger)) return [];
    const [page, totalCount, totalPages] = numbers as [number, number, number];
    const query = new URL(exchange.entry.request.url).searchParams;
    return [{ entry: entryOf(exchange), query, page, items: items.length, totalCount, totalPages }];
  });
  const about = 'how GET /users pages: query names, first page, page size';
  const refusedNames = new Set(
    samples.all.flatMap((exchange) =>
      exchange.operation?.id === 'listUsers' &&
      exchange.entry.response.status === 400 &&
      withFullToken(exchange)
        ? [...new URL(exchange.entry.request.url).searchParams.keys()]
        : [],
    ),
  );
  const paging = learnPaging(pages, refusedNames);
  if (paging)
    report.learned(
      'paging',
      about,
      paging,
      describePaging(
        paging,
        pages.some(({ query }) => query.has(paging.position) || query.has(paging.size)),
      ),
      pages.map(({ entry }) => entry),
    );
  else {
    if (pages.length > 0)
      report.unlearned(
        pages.map(({ entry }) => entry),
        'no one paging explains every recorded page: pacu pages its own way',
      );
    report.kept('paging', about, PACU_PAGING, describePaging(PACU_PAGING));
  }
  return withLimits(spec, paging ?? PACU_PAGING, samples, withFullToken, report);
}

/** The paging with the limits its requests showed (a position or a size the sandbox refused). */
function withLimits(
  spec: Spec,
  paging: Paging,
  samples: Samples,
  withFullToken: (exchange: RoutedExchange) => boolean,
  report: ReportDraft,
): Paging {
  const whole = (text: string | null) =>
    text !== null && /^-?[0-9]{1,9}$/.test(text) ? Number(text) : undefined;
  const tries: PageTry[] = samples.all.flatMap((exchange) => {
    const status = exchange.entry.response.status;
    if (exchange.operation?.id !== 'listUsers' || !withFullToken(exchange)) return [];
    if (status !== 200 && (status < 400 || status >= 500 || [401, 403, 429].includes(status))) return [];
    const query = new URL(exchange.entry.request.url).searchParams;
    return [
      {
        entry: entryOf(exchange),
        position: whole(query.get(paging.position)),
        size: whole(query.get(paging.size)),
        taken: status === 200,
      },
    ];
  });
  const limits = learnPagingLimits(tries);
  const about = `the paging limits (${paging.position}, ${paging.size})`;
  const entries = tries
    .filter((one) => one.position !== undefined || one.size !== undefined)
    .map((one) => one.entry);
  if (!limits) {
    report.kept(
      'paging.limits',
      about,
      undefined,
      entries.length > 0 ? 'left free: no two refusals beyond the values taken' : 'never tried',
      entries,
    );
    // pacu's paging is judged by the spec's ranges only where the sandbox showed nothing against them.
    const range = (name: string) =>
      spec.operation('listUsers').parameters.find((parameter) => parameter.name === name)?.schema ?? {};
    const within = (value: number | undefined, name: string) => {
      const { minimum, maximum } = range(name) as { minimum?: number; maximum?: number };
      return value === undefined || ((minimum ?? value) <= value && value <= (maximum ?? value));
    };
    const beyond = tries.some(
      (one) => !one.taken || !within(one.position, paging.position) || !within(one.size, paging.size),
    );
    return paging === PACU_PAGING && beyond ? { ...paging } : paging;
  }
  const shown = [
    limits.minPosition !== undefined ? `${paging.position} from ${limits.minPosition}` : undefined,
    limits.minSize !== undefined ? `${paging.size} from ${limits.minSize}` : undefined,
    limits.maxSize !== undefined ? `${paging.size} up to ${limits.maxSize}` : undefined,
  ].filter(Boolean);
  report.learned('paging.limits', about, limits, `${shown.join(', ')}; refused beyond`, entries);
  // A new object even for pacu's paging: the limits, not the spec's, now judge the query.
  return { ...paging, limits };
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
