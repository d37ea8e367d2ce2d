import type { Found, ReadKeys } from '../state-store.ts';
import type { PgClient } from './pg-client.ts';
import { foundOf, readStatement } from './pg-reads.ts';

/** Pages of users kept (by start and size): enough for every page a client walks. */
const PAGES = 64;

/**
 * The request's read, with pages of users kept by the config version they were read at. Users
 * change only with a reset or a load, both of which move the version, and every read returns the
 * version in the same round trip: a kept page is used only when it is still the database's. One
 * read, one round trip; a page whose version moved costs one more.
 */
export function createPagedRead(db: PgClient, seen: (config: { version: number; nowMs: number }) => unknown) {
  const pages = new Map<string, { version: number; users: NonNullable<Found['users']> }>();
  const keep = (key: string, version: number, users: NonNullable<Found['users']>): void => {
    if (pages.size >= PAGES) pages.delete(pages.keys().next().value as string);
    pages.set(key, { version, users });
  };
  return async (keys: ReadKeys): Promise<Found> => {
    const page = keys.usersPage;
    const key = page ? `${page.start} ${page.size}` : '';
    const kept = page ? pages.get(key) : undefined;
    const { statement, columns } = readStatement(kept ? { ...keys, usersPage: undefined } : keys);
    const [row] = await db.query<Record<string, unknown>>('read', statement);
    const { found, config } = foundOf(row ?? {}, columns);
    await seen(config);
    if (!page) return found;
    if (kept?.version === config.version) found.users = kept.users;
    else if (kept) {
      const again = await db.query<Record<string, unknown>>(
        'read',
        readStatement({ usersPage: page }).statement,
      );
      const fresh = foundOf(again[0] ?? {}, ['usersPage']);
      if (fresh.found.users) keep(key, fresh.config.version, fresh.found.users);
      found.users = fresh.found.users ?? { items: [], total: 0 };
    } else if (found.users) keep(key, config.version, found.users);
    return found;
  };
}
