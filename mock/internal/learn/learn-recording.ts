import type { OperationId, Spec } from '../../../spec/index.ts';
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
import { learnRecords } from './learn-records.ts';
import { learnRefusals } from './learn-refusals.ts';
import { type ReportDraft, reportDraft } from './learned-report.ts';
import { learnPaging, type PageSample } from './paging.ts';
import { dataOf, entryOf, type Samples, sortSamples } from './samples.ts';
import { createScratchMock } from './scratch-mock.ts';
import { timestampWriter } from './timestamp-form.ts';

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

/** `namesSent`: whether a recorded request used the query names, or they are pacu's. */
function describePaging(paging: Paging, namesSent = true): string {
  const position =
    paging.style === 'page' ? `${paging.position} (from ${paging.first})` : `${paging.position} (an offset)`;
  return `${position} and ${paging.size}${namesSent ? '' : " (names never sent: pacu's)"}, ${paging.defaultSize} a page`;
}

function learnPagingOf(samples: Samples, report: ReportDraft): Paging {
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
  const paging = learnPaging(pages);
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
  return paging ?? PACU_PAGING;
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
  const records = learnRecords(spec, samples, report);
  const makers = new Map([...answers.ids].map(([kind, form]) => [kind, idMaker(form)]));
  const behaviour = {
    ...pacuBehaviour(spec),
    basePath,
    contentType: answers.contentType,
    headers: answers.headers,
    tokenType: answers.tokenType ?? 'Bearer',
    tokenLifetimeSeconds: answers.tokenLifetimeSeconds,
    stamp: answers.timestamps ? timestampWriter(answers.timestamps) : pacuBehaviour(spec).stamp,
    moneyTwoDecimals: answers.money === 'two-decimals',
    newId: (kind: string) => makers.get(kind)?.() ?? pacuId(kind),
    plans: records.plans,
    messages: answers.messages,
    replay: answers.replay,
    paging: learnPagingOf(samples, report),
    p2p: records.p2p,
    bearerOptional: new Set<OperationId>(),
    scopeOptional: new Set<OperationId>(),
    optionalFields: {} as Partial<Record<OperationId, string[]>>,
    anyContentType: false,
    reusedReference: 'refused' as Behaviour['reusedReference'],
  };
  const scratch = createScratchMock({ ...input, state: input.state(), behaviour });
  const refusals = learnRefusals(samples.all, scratch, behaviour, report);
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
