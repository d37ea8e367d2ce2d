import type { Found, ReadKeys } from '../state-store.ts';
import type { Statement } from './pg-client.ts';

// A request's reads in one statement: one scalar subquery per key it has, and the cluster's config
// row (its version and the manual clock) always, so no cache is ever trusted past its version.

/** One key's subquery: the SQL (with `$n` placeholders filled in by `param`), and where its answer goes. */
interface Column {
  readonly key: keyof ReadKeys;
  sql(param: (value: unknown) => string, keys: ReadKeys): string;
}

const byId =
  (table: string, id: string): Column['sql'] =>
  (param, keys) => {
    const key = ID_KEYS[table] as keyof ReadKeys;
    return `(SELECT doc FROM ${table} WHERE ${id} = ${param(keys[key])})`;
  };

const ID_KEYS: Record<string, keyof ReadKeys> = {
  pacu_tokens: 'token',
  pacu_clients: 'clientId',
  pacu_accounts: 'accountId',
  pacu_cards: 'cardId',
  pacu_card_transactions: 'cardTransactionId',
  pacu_push_to_card: 'pushToCardId',
  pacu_users: 'userId',
};

const COLUMNS: readonly Column[] = [
  { key: 'token', sql: byId('pacu_tokens', 'token') },
  { key: 'clientId', sql: byId('pacu_clients', 'client_id') },
  { key: 'accountId', sql: byId('pacu_accounts', 'account_id') },
  {
    key: 'reference',
    // The token's client's transfer, else one a recording left to everyone (owner '').
    sql: (param, keys) =>
      `(SELECT doc FROM pacu_transfers WHERE reference = ${param(keys.reference)} AND client_id IN (${
        keys.token === undefined
          ? "''"
          : `COALESCE((SELECT client_id FROM pacu_tokens WHERE token = ${param(keys.token)}), '')`
      }, '') ORDER BY client_id DESC LIMIT 1)`,
  },
  { key: 'cardId', sql: byId('pacu_cards', 'card_id') },
  { key: 'cardTransactionId', sql: byId('pacu_card_transactions', 'transaction_id') },
  { key: 'pushToCardId', sql: byId('pacu_push_to_card', 'transaction_id') },
  { key: 'userId', sql: byId('pacu_users', 'user_id') },
  {
    key: 'usersPage',
    sql: (param, keys) =>
      `(SELECT json_build_array(COALESCE((SELECT json_agg(doc ORDER BY seq) FROM (SELECT doc, seq FROM pacu_users ORDER BY seq OFFSET ${param(
        keys.usersPage?.start,
      )} LIMIT ${param(keys.usersPage?.size)}) page), '[]'::json), (SELECT count(*) FROM pacu_users)))`,
  },
];

/** What the config row says: its version (scenario and faults) and the manual clock. */
export interface ConfigStamp {
  version: number;
  nowMs: number;
}

const FOUND_KEYS: Record<keyof ReadKeys, keyof Found> = {
  token: 'token',
  clientId: 'client',
  accountId: 'account',
  reference: 'reference',
  cardId: 'card',
  cardTransactionId: 'cardTransaction',
  pushToCardId: 'pushToCard',
  userId: 'user',
  usersPage: 'users',
};

/** The statement that reads `keys` (named by which keys it has, so each shape is prepared once). */
export function readStatement(keys: ReadKeys): { statement: Statement; columns: Array<keyof ReadKeys> } {
  const values: unknown[] = [];
  const param = (value: unknown): string => {
    values.push(value);
    return `$${values.length}`;
  };
  const columns: Array<keyof ReadKeys> = [];
  let mask = 0;
  let select = `SELECT (SELECT json_build_array(version, now_ms) FROM pacu_config) AS config`;
  COLUMNS.forEach((column, index) => {
    if (keys[column.key] === undefined) return;
    mask |= 1 << index;
    columns.push(column.key);
    select += `, ${column.sql(param, keys)} AS c${index}`;
  });
  return { statement: { name: `pacu-read-${mask}`, text: select, values }, columns };
}

/** The statement's one row as {@link Found}, and the config stamp beside it. */
export function foundOf(
  row: Record<string, unknown>,
  columns: Array<keyof ReadKeys>,
): { found: Found; config: ConfigStamp } {
  const found: Found = {};
  for (const key of columns) {
    const index = COLUMNS.findIndex((column) => column.key === key);
    const value = row[`c${index}`];
    if (value === null || value === undefined) continue;
    if (key === 'usersPage') {
      const [items, total] = value as [Found['users'] extends infer U ? U : never, string];
      found.users = { items: items as unknown as NonNullable<Found['users']>['items'], total: Number(total) };
    } else (found as Record<string, unknown>)[FOUND_KEYS[key]] = value;
  }
  const [version, nowMs] = (row.config as [string | number, string | number] | null) ?? [0, 0];
  return { found, config: { version: Number(version), nowMs: Number(nowMs) } };
}
