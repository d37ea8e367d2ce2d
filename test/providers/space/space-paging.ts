import type { Knobs } from './knobs.ts';
import { Refusal } from './refusal.ts';
import type { User } from './space-records.ts';

/** Users per page when the request names no size. */
const DEFAULT_PAGE_SIZE = 2;
/** The largest page size a provider with page limits takes. */
export const MAX_PAGE_SIZE = 50;

function whole(query: URLSearchParams, name: string, fallback: number): number {
  const text = query.get(name);
  if (text === null) return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 0) throw new Refusal(400, `${name} must be a whole number`);
  return value;
}

/**
 * One page of users, in the paging style the provider chose (the description shows page,
 * total_count and total_pages in the answer and no query parameter).
 */
export function listUsers(
  users: readonly User[],
  query: URLSearchParams,
  knobs: Knobs,
): Record<string, unknown> {
  const sizeName = knobs.paging === 'offset-limit' ? 'limit' : 'per_page';
  const asked = whole(query, sizeName, DEFAULT_PAGE_SIZE);
  const first = knobs.paging === 'page-from-0' ? 0 : 1;
  const offsetStyle = knobs.paging === 'offset-limit';
  const position = whole(query, offsetStyle ? 'offset' : 'page', offsetStyle ? 0 : first);
  if (knobs.pageLimits === 'refused') {
    if (asked < 1 || asked > MAX_PAGE_SIZE)
      throw new Refusal(400, `${sizeName} must be between 1 and ${MAX_PAGE_SIZE}`);
    if (knobs.paging !== 'offset-limit' && position < first)
      throw new Refusal(400, `page must be ${first} or more`);
  }
  const size = Math.max(1, asked);
  const offset = knobs.paging === 'offset-limit' ? position : (position - first) * size;
  const shownPage = Math.floor(offset / size) + (knobs.paging === 'page-from-0' ? 0 : 1);
  return {
    items: users.slice(Math.max(0, offset), Math.max(0, offset) + size),
    page: shownPage,
    total_count: users.length,
    total_pages: Math.ceil(users.length / size),
  };
}
