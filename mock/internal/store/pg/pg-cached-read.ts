import type { Found, ReadKeys } from '../state-store.ts';
import type { PgClient } from './pg-client.ts';
import { type ConfigStamp, foundOf, readStatement } from './pg-reads.ts';

/** Pages of users kept (by start and size): enough for every page a client walks. */
const PAGES = 64;
/** Tokens kept: every client of a busy shared mock holds a few at a time. */
const TOKENS = 4096;
/** Accounts kept: the ones transfers and payouts are made from. */
const ACCOUNTS = 4096;

/** What a read left, kept with the config version it was read at. */
interface Kept<T> {
  readonly version: number;
  readonly value: T;
}

/** A map that forgets its oldest entry when full. */
function keptUpTo<T>(size: number) {
  const entries = new Map<string, Kept<T>>();
  return {
    get: (key: string): Kept<T> | undefined => entries.get(key),
    set(key: string, version: number, value: T): void {
      if (!entries.has(key) && entries.size >= size) entries.delete(entries.keys().next().value as string);
      entries.set(key, { version, value });
    },
  };
}

/**
 * The config stamp, read by a statement sent after the caller asked: everything committed before
 * the caller's request arrived is in it. Callers that ask while a read waits to be sent share it;
 * at most one is on the wire, so a busy replica reads the stamp once for many requests.
 */
function createStampRead(db: PgClient): () => Promise<ConfigStamp> {
  const { statement } = readStatement({});
  let waiting: Promise<ConfigStamp> | undefined;
  let onTheWire: Promise<unknown> = Promise.resolve();
  return () => {
    if (waiting) return waiting;
    const read = onTheWire.then(async () => {
      waiting = undefined;
      const [row] = await db.query<Record<string, unknown>>('read', statement);
      return foundOf(row ?? {}, []).config;
    });
    waiting = read;
    onTheWire = read.catch(() => undefined);
    return read;
  };
}

/**
 * The request's read, with what never changes within one config version kept: pages of users,
 * tokens and accounts (rows never updated). A kept value is used only at the version the read
 * returns; a request with nothing but kept keys reads only that version, shared by the requests that
 * asked together. Decision 192.
 */
export function createCachedRead(
  db: PgClient,
  { seen, now }: { seen: (config: ConfigStamp) => unknown; now: () => number },
) {
  const pages = keptUpTo<NonNullable<Found['users']>>(PAGES);
  const tokens = keptUpTo<NonNullable<Found['token']>>(TOKENS);
  const accounts = keptUpTo<NonNullable<Found['account']>>(ACCOUNTS);
  const stamp = createStampRead(db);

  /** Read `keys` from the database, and keep what may be kept. */
  const readAll = async (keys: ReadKeys, keptPage?: Kept<NonNullable<Found['users']>>): Promise<Found> => {
    const page = keys.usersPage;
    const { statement, columns } = readStatement(keptPage ? { ...keys, usersPage: undefined } : keys);
    const [row] = await db.query<Record<string, unknown>>('read', statement);
    const { found, config } = foundOf(row ?? {}, columns);
    await seen(config);
    if (found.token) tokens.set(found.token.token, config.version, found.token);
    if (found.account) accounts.set(found.account.record.account_id, config.version, found.account);
    if (!page) return found;
    const key = `${page.start} ${page.size}`;
    if (keptPage?.version === config.version) found.users = keptPage.value;
    else if (keptPage) {
      const again = await db.query<Record<string, unknown>>(
        'read',
        readStatement({ usersPage: page }).statement,
      );
      const fresh = foundOf(again[0] ?? {}, ['usersPage']);
      if (fresh.found.users) pages.set(key, fresh.config.version, fresh.found.users);
      found.users = fresh.found.users ?? { items: [], total: 0 };
    } else if (found.users) pages.set(key, config.version, found.users);
    return found;
  };

  return async (keys: ReadKeys): Promise<Found> => {
    const page = keys.usersPage;
    const keptPage = page ? pages.get(`${page.start} ${page.size}`) : undefined;
    const keptToken = keys.token === undefined ? undefined : tokens.get(keys.token);
    const keptAccount = keys.accountId === undefined ? undefined : accounts.get(keys.accountId);
    // A transfer from a kept account with a kept token leaves its reference to the insert.
    const unread = keptToken !== undefined && keptAccount !== undefined;
    const kept: Record<keyof ReadKeys, boolean> = {
      token: keptToken !== undefined,
      usersPage: keptPage !== undefined,
      accountId: keptAccount !== undefined,
      reference: unread,
      clientId: false,
      cardId: false,
      cardTransactionId: false,
      pushToCardId: false,
      userId: false,
    };
    const onlyKept = (Object.keys(keys) as Array<keyof ReadKeys>).every(
      (key) => keys[key] === undefined || kept[key],
    );
    if (!onlyKept) return readAll(keys, keptPage);
    const config = await stamp();
    await seen(config);
    const current = (value: Kept<unknown> | undefined): boolean =>
      value === undefined || value.version === config.version;
    // An expired token is read again: the database may have forgotten it (unknown, not expired).
    if (
      !current(keptToken) ||
      !current(keptPage) ||
      !current(keptAccount) ||
      (keptToken && keptToken.value.expiresAt <= now())
    )
      return readAll(keys);
    return {
      ...(keptToken ? { token: keptToken.value } : {}),
      ...(keptPage ? { users: keptPage.value } : {}),
      ...(keptAccount ? { account: keptAccount.value } : {}),
      ...(keys.reference !== undefined ? { referenceUnread: true as const } : {}),
    };
  };
}
