import type { RoutedExchange } from '../../../http/index.ts';
import type { Spec } from '../../../spec/index.ts';
import { PACU_PAGING, type Paging } from '../behaviour.ts';
import type { ReportDraft } from './learned-report.ts';
import { learnPaging, learnPagingLimits, type PageSample, type PageTry } from './paging.ts';
import { dataOf, entryOf, type Samples } from './samples.ts';

/** `namesSent`: whether a recorded request used the query names, or they are pacu's. */
function describePaging(paging: Paging, namesSent = true): string {
  const position =
    paging.style === 'page' ? `${paging.position} (from ${paging.first})` : `${paging.position} (an offset)`;
  return `${position} and ${paging.size}${namesSent ? '' : " (names never sent: pacu's)"}, ${paging.defaultSize} a page`;
}

/**
 * How the sandbox pages `GET /users` (names, first page, size; decision 141) and the limits its
 * refusals showed (decision 177).
 */
export function learnPagingOf(
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
