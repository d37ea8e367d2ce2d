import type { PaymentKind, SeededIds } from '../../../types.ts';
import { applyEntry, type CollectionName } from '../../snapshot.ts';
import { emptyState, type MockState } from '../../state.ts';
import type { TransactionQuery } from './pg-client.ts';
import { nextDue } from './pg-records.ts';

// A whole state in and out of the tables, in one transaction: seeding, a reset, `PUT /state`,
// `GET /state`. Each collection is one statement over a JSON array, not a row a round trip.

/** The tables of business data: what a reset empties (clients, tokens, receivers and coverage stay). */
export const BUSINESS_TABLES = [
  'pacu_users',
  'pacu_cards',
  'pacu_card_transactions',
  'pacu_accounts',
  'pacu_transfers',
  'pacu_payouts',
  'pacu_push_to_card',
  'pacu_p2p_notified',
  'pacu_due',
  'pacu_events',
  'pacu_deliveries',
  'pacu_attempts',
] as const;

export const WIRING_TABLES = ['pacu_clients', 'pacu_tokens', 'pacu_receivers'] as const;

const each = (table: string, columns: string, values: string): string =>
  `INSERT INTO ${table} (${columns}) SELECT ${values} FROM jsonb_array_elements($1::jsonb) WITH ORDINALITY AS x(e, o)`;

const STATEMENTS: Array<[CollectionName, string]> = [
  ['users', each('pacu_users', 'user_id, seq, doc', "e->>'user_id', o - 1, e")],
  ['cards', each('pacu_cards', 'card_id, doc', "e->>'card_id', e")],
  ['cardTransactions', each('pacu_card_transactions', 'transaction_id, doc', "e->>'transaction_id', e")],
  [
    'pushToCard',
    each('pacu_push_to_card', 'transaction_id, created_at, doc', "e->'record'->>'transaction_id', $2, e"),
  ],
  [
    'accounts',
    each(
      'pacu_accounts',
      'account_id, client_id, created_at, doc',
      "e->'record'->>'account_id', e->>'clientId', $2, e",
    ),
  ],
  [
    'transfers',
    each(
      'pacu_transfers',
      'transaction_id, client_id, reference, created_at, doc',
      "e->'record'->>'transaction_id', e->>'clientId', e->'record'->>'reference', $2, e",
    ),
  ],
  [
    'payouts',
    each(
      'pacu_payouts',
      'transaction_id, client_id, created_at, doc',
      "e->'record'->>'transaction_id', e->>'clientId', $2, e",
    ),
  ],
  ['p2pNotified', each('pacu_p2p_notified', 'user_id', "e #>> '{}'")],
];

const WIRING: Array<[CollectionName, string]> = [
  ['clients', each('pacu_clients', 'client_id, doc', "e->>'clientId', e")],
  [
    'tokens',
    each(
      'pacu_tokens',
      'token, client_id, expires_at, doc',
      "e->>'token', e->>'clientId', (e->>'expiresAt')::bigint, e",
    ),
  ],
  ['receivers', each('pacu_receivers', 'id, client_id, doc', "e->>'id', e->>'clientId', e")],
];

/** The payments of `state` whose lifecycle has a step ahead: their due rows. */
function dueRows(state: MockState): Array<[PaymentKind, string, number]> {
  const rows: Array<[PaymentKind, string, number]> = [];
  const add = (kind: PaymentKind, payments: Iterable<Parameters<typeof nextDue>[0]>): void => {
    for (const payment of payments) {
      const at = nextDue(payment);
      if (at !== null) rows.push([kind, payment.record.transaction_id, at]);
    }
  };
  add('usd_transfer', state.transfers.values());
  add('wallet_payout', state.payouts.values());
  add('push_to_card', state.pushToCard.values());
  return rows;
}

/**
 * Write `state` into emptied tables; `wiring`: its clients, tokens and receivers too. Its records
 * carry no time made (NULL): seeded or loaded, retention never prunes them.
 */
export async function writeState(query: TransactionQuery, state: MockState, wiring: boolean): Promise<void> {
  const items = (collection: CollectionName): unknown[] => {
    if (collection === 'users') return state.users;
    if (collection === 'p2pNotified') return [...state.p2pNotified];
    const map = state[collection] as unknown as { values(): Iterable<unknown> };
    return [...map.values()];
  };
  for (const [collection, text] of wiring ? [...STATEMENTS, ...WIRING] : STATEMENTS) {
    const list = items(collection);
    if (list.length === 0) continue;
    const values: unknown[] = [JSON.stringify(list)];
    if (text.includes('$2')) values.push(null);
    await query({ text, values });
  }
  const due = dueRows(state);
  if (due.length > 0)
    await query({
      text: 'INSERT INTO pacu_due (kind, payment_id, at) SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[])',
      values: [due.map((row) => row[0]), due.map((row) => row[1]), due.map((row) => row[2])],
    });
}

const READS: Array<[CollectionName, string]> = [
  ['users', 'SELECT doc FROM pacu_users ORDER BY seq'],
  ['p2pNotified', 'SELECT to_jsonb(user_id) AS doc FROM pacu_p2p_notified'],
  ['cards', 'SELECT doc FROM pacu_cards'],
  ['cardTransactions', 'SELECT doc FROM pacu_card_transactions'],
  ['pushToCard', 'SELECT doc FROM pacu_push_to_card ORDER BY created_at NULLS FIRST, transaction_id'],
  ['accounts', 'SELECT doc FROM pacu_accounts ORDER BY created_at NULLS FIRST, account_id'],
  ['transfers', 'SELECT doc FROM pacu_transfers ORDER BY created_at NULLS FIRST, transaction_id'],
  ['payouts', 'SELECT doc FROM pacu_payouts ORDER BY created_at NULLS FIRST, transaction_id'],
  ['clients', 'SELECT doc FROM pacu_clients'],
  ['tokens', 'SELECT doc FROM pacu_tokens'],
  ['receivers', 'SELECT doc FROM pacu_receivers ORDER BY id'],
];

/** The whole state, read in one transaction (a consistent snapshot). */
export async function readState(query: TransactionQuery, seeded: SeededIds): Promise<MockState> {
  const state = emptyState(seeded);
  for (const [collection, text] of READS) {
    const rows = await query<{ doc: unknown }>({ text });
    for (const row of rows) applyEntry(state, collection, row.doc);
  }
  return state;
}
