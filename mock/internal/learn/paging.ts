import { PACU_PAGING, type Paging } from '../behaviour.ts';

/** One recorded page of the user list: the query asked and what the page held. */
export interface PageSample {
  readonly entry: number;
  readonly query: URLSearchParams;
  readonly page: number;
  readonly items: number;
  readonly totalCount: number;
  readonly totalPages: number;
}

const whole = (text: string | null): number | undefined =>
  text !== null && /^[0-9]{1,9}$/.test(text) ? Number(text) : undefined;

/** Whether `paging` answers `sample`'s query with the page, item count and page count it recorded. */
function explains(paging: Paging, sample: PageSample): boolean {
  let size = sample.query.has(paging.size) ? whole(sample.query.get(paging.size)) : paging.defaultSize;
  const position = sample.query.has(paging.position)
    ? whole(sample.query.get(paging.position))
    : paging.style === 'page'
      ? paging.first
      : 0;
  if (size === undefined || position === undefined) return false;
  // A size of 0 answered is a size of 1: a sandbox that takes it reads it so, as the mock does.
  size = Math.max(1, size);
  const start = Math.max(0, paging.style === 'page' ? (position - paging.first) * size : position);
  const page = paging.style === 'page' ? position : Math.floor(position / size) + paging.first;
  const items = Math.max(0, Math.min(size, sample.totalCount - start));
  return (
    page === sample.page &&
    items === sample.items &&
    Math.ceil(sample.totalCount / size) === sample.totalPages
  );
}

/** How many query values the paging reads and that moved the page away from the first one. */
function honoured(paging: Paging, samples: readonly PageSample[]): number {
  return samples.reduce(
    (count, sample) => count + [paging.position, paging.size].filter((name) => sample.query.has(name)).length,
    0,
  );
}

const same = (a: Paging, b: Paging): boolean =>
  a.style === b.style &&
  a.position === b.position &&
  a.size === b.size &&
  a.first === b.first &&
  a.defaultSize === b.defaultSize;

/**
 * The paging the recorded pages show: which query names the sandbox honoured (page and size, or
 * offset and limit), its first page number and its default page size. Of the pagings that explain
 * every recorded page, the one that reads the most of what was asked; pacu's own when it is one of
 * them (then the spec's checks of page and per_page hold), undefined when none explains them.
 */
export function learnPaging(
  samples: readonly PageSample[],
  refusedNames: ReadonlySet<string> = new Set(),
): Paging | undefined {
  if (samples.length === 0) return undefined;
  const names = [...new Set(samples.flatMap((sample) => [...sample.query.keys()]))];
  const sizes = new Set<number>();
  for (const sample of samples)
    if (sample.totalPages > 1) sizes.add(Math.ceil(sample.totalCount / sample.totalPages));
  for (const sample of samples) if (sample.totalPages > 1 && sample.items > 0) sizes.add(sample.items);
  // Small sizes too: an offset answered as a page number tells the size when nothing else does.
  for (const size of [PACU_PAGING.defaultSize, 10, 25, 50, 100]) sizes.add(size);
  for (let size = 1; size <= 30; size++) sizes.add(size);
  for (const sample of samples) sizes.add(Math.max(1, sample.totalCount));
  const unused = '\u0000none';
  const candidates: Paging[] = [PACU_PAGING];
  for (const style of ['page', 'offset'] as const)
    for (const position of [...names, unused])
      for (const size of [...names, unused])
        for (const first of [1, 0] as const)
          for (const defaultSize of sizes)
            if (position !== size || position === unused)
              candidates.push({ style, position, size, first, defaultSize });
  const fitting = candidates.filter((paging) => samples.every((sample) => explains(paging, sample)));
  if (fitting.some((paging) => same(paging, PACU_PAGING))) return PACU_PAGING;
  // A name whose bad value was refused is read: that breaks a tie no answer can (one user, every size).
  const reads = (paging: Paging) =>
    honoured(paging, samples) +
    [paging.position, paging.size].filter((name) => refusedNames.has(name)).length;
  const [best] = fitting.sort((a, b) => reads(b) - reads(a));
  if (!best) return undefined;
  // A name the pages never asked for is the one pacu would use: it reads the same either way.
  return {
    ...best,
    position: best.position === unused ? (best.style === 'page' ? 'page' : 'offset') : best.position,
    size: best.size === unused ? (best.style === 'page' ? 'per_page' : 'limit') : best.size,
  };
}

/** Refusals beyond every taken value needed before a paging limit is learned. */
const REFUSALS_FOR_A_LIMIT = 2;

/** One request for the user list: its position and size as the learned names read them, and its fate. */
export interface PageTry {
  readonly entry: number;
  readonly position: number | undefined;
  readonly size: number | undefined;
  readonly taken: boolean;
}

function limitOf(tries: readonly PageTry[], value: (one: PageTry) => number | undefined) {
  const valued = tries.flatMap((one) => {
    const of = value(one);
    return of === undefined ? [] : [{ of, taken: one.taken }];
  });
  const taken = valued.filter((one) => one.taken).map((one) => one.of);
  if (taken.length === 0) return {};
  const low = Math.min(...taken);
  const high = Math.max(...taken);
  const below = valued.filter((one) => !one.taken && one.of < low).map((one) => one.of);
  const above = valued.filter((one) => !one.taken && one.of > high).map((one) => one.of);
  return {
    ...(below.length >= REFUSALS_FOR_A_LIMIT ? { min: Math.max(...below) + 1 } : {}),
    ...(above.length >= REFUSALS_FOR_A_LIMIT ? { max: Math.min(...above) - 1 } : {}),
  };
}

/**
 * The limits of a paging from the requests that named its position or size: the least position and
 * size, and the largest size, the sandbox answered, where at least two refusals lie beyond the
 * values it took (a single refusal, or one among taken values, makes no limit).
 */
export function learnPagingLimits(tries: readonly PageTry[]): NonNullable<Paging['limits']> | undefined {
  const position = limitOf(tries, (one) => one.position);
  const size = limitOf(tries, (one) => one.size);
  const limits = {
    ...(position.min !== undefined ? { minPosition: position.min } : {}),
    ...(size.min !== undefined ? { minSize: size.min } : {}),
    ...(size.max !== undefined ? { maxSize: size.max } : {}),
  };
  return Object.keys(limits).length > 0 ? limits : undefined;
}
