import { OPERATION_ROUTES, type OperationId, pathFor } from '../spec/index.ts';
import { pathOf } from './teaching-bodies.ts';
import type { Teacher } from './teaching-context.ts';

/** Page sizes tried, smallest first: the largest one taken is a round number, most often. */
const SIZES = [10, 25, 50, 100, 250, 1000, 10_000] as const;

interface Names {
  readonly position: string;
  readonly size: string;
  /** The first page's number as answered (page style), or 0 for an offset. */
  readonly first: number;
  readonly offset: boolean;
}

const numberOf = (value: unknown): number | undefined =>
  Number.isInteger(value) ? (value as number) : undefined;

/** The paging names the sandbox honoured among the ones the happy path tried (pacu's when none did). */
function namesOf(teacher: Teacher): Names {
  const first = numberOf(teacher.found.firstPage?.page) ?? 1;
  const pages = teacher.found.pages ?? {};
  const total = numberOf(teacher.found.firstPage?.total_count);
  // A size of 1 honoured makes as many pages as users (two at least, or every size does).
  const sizeOne = (query: string) =>
    total !== undefined && total >= 2 && numberOf(pages[query]?.total_pages) === total;
  if (numberOf(pages['page=2&per_page=1']?.page) === 2) {
    const size = !sizeOne('page=2&per_page=1') && sizeOne('page=2&page_size=1') ? 'page_size' : 'per_page';
    return { position: 'page', size, first, offset: false };
  }
  // An offset of 1 with a limit of 1 is the second page.
  if (sizeOne('offset=1&limit=1') || numberOf(pages['offset=1&limit=1']?.page) === first + 1)
    return { position: 'offset', size: 'limit', first: 0, offset: true };
  return { position: 'page', size: 'per_page', first, offset: false };
}

/**
 * The limits of paging: a page before the first, a size of 0, and the largest size taken (the
 * largest tried first, then a bisection and one past the edge).
 */
export async function teachPaging(teacher: Teacher): Promise<void> {
  const names = namesOf(teacher);
  const list = async (teaches: string, query: string): Promise<boolean> => {
    const answer = await teacher.send(teaches, {
      method: 'GET',
      path: `${pathOf('listUsers')}?${query}`,
      headers: await teacher.withToken(),
    });
    return answer.status === 200;
  };
  // Two of each: one refusal makes no limit.
  const before = names.offset ? 0 : names.first;
  for (const position of [before - 1, before - 2])
    await list('the refusal of a page before the first', `${names.position}=${position}`);
  for (const size of [0, -1]) await list('the refusal of a page size below 1', `${names.size}=${size}`);
  const largest = SIZES[SIZES.length - 1] as number;
  if (await list('the largest page size taken', `${names.size}=${largest}`)) return;
  let taken = -1;
  let refused = SIZES.length - 1;
  while (refused - taken > 1) {
    const middle = Math.floor((taken + refused) / 2);
    if (await list('the largest page size taken', `${names.size}=${SIZES[middle]}`)) taken = middle;
    else refused = middle;
  }
  const edge = taken < 0 ? 1 : (SIZES[taken] as number) + 1;
  if (edge < (SIZES[refused] as number)) await list('the largest page size taken', `${names.size}=${edge}`);
}

/** Whether a path with a trailing slash, and one in another case, is served as the path itself. */
export async function teachPathVariants(teacher: Teacher): Promise<void> {
  const user = teacher.found.userId;
  const reads: Array<[OperationId, Record<string, string>]> = [
    ['listUsers', {}],
    ...(user ? [['getP2pStatus', { user_id: user }] as [OperationId, Record<string, string>]] : []),
  ];
  // Literal segments in capitals, ids as they are: a sandbox's ids are case-sensitive.
  const upper = (id: OperationId, params: Record<string, string>) =>
    pathFor(
      {
        id,
        path: OPERATION_ROUTES[id].path
          .split('/')
          .map((part) => (part.startsWith('{') ? part : part.toUpperCase()))
          .join('/'),
      },
      params,
    );
  for (const [teaches, make] of [
    [
      'whether a path with a trailing slash is served',
      (id: OperationId, params: Record<string, string>) => `${pathOf(id, params)}/`,
    ],
    ['whether a path in another case is served', upper],
  ] as const)
    for (const [id, params] of reads)
      await teacher.send(teaches, {
        method: 'GET',
        path: make(id, params),
        headers: await teacher.withToken(),
      });
}
