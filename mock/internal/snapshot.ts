import { compileSchema, type JSONSchema7, SCOPES, type SchemaCheck, type Spec } from '../../spec/index.ts';
import type { SnapshotHeader, StateCollection, StateSnapshot } from '../types.ts';
import {
  addPayout,
  addTransfer,
  addUser,
  emptyState,
  type Lifecycle,
  type MockState,
  type StoreView as StoreState,
} from './state.ts';

/** The collections of a state snapshot, in the order they are written and read. */
export const COLLECTIONS = [
  'users',
  'p2pNotified',
  'cards',
  'cardTransactions',
  'pushToCard',
  'accounts',
  'transfers',
  'payouts',
  'clients',
  'tokens',
  'receivers',
] as const satisfies readonly StateCollection[];
export type CollectionName = StateCollection;

const str: JSONSchema7 = { type: 'string' };
const scopes: JSONSchema7 = { type: 'array', items: { enum: [...SCOPES] } };
const lifecycle: JSONSchema7 = {
  type: 'object',
  required: ['steps', 'next'],
  properties: {
    next: { type: 'integer', minimum: 0 },
    steps: {
      type: 'array',
      items: {
        type: 'object',
        required: ['at', 'status'],
        properties: { at: { type: 'number' }, status: { enum: ['successful', 'failed'] } },
      },
    },
  },
};
const wrapper = (record: JSONSchema7, fields: Record<string, JSONSchema7>): JSONSchema7 => ({
  type: 'object',
  required: ['record', ...Object.keys(fields)],
  properties: { record, ...fields, lifecycle },
});

const checksBySpec = new WeakMap<Spec, Record<CollectionName, SchemaCheck>>();

/** One checker per collection; records are checked against the spec's own schemas. */
export function collectionChecks(spec: Spec): Record<CollectionName, SchemaCheck> {
  const cached = checksBySpec.get(spec);
  if (cached) return cached;
  const checks: Record<CollectionName, SchemaCheck> = {
    users: compileSchema(spec.schema('User')),
    p2pNotified: compileSchema(str),
    cards: compileSchema(spec.schema('VirtualCard')),
    cardTransactions: compileSchema(spec.schema('CardTransaction')),
    pushToCard: compileSchema(wrapper(spec.schema('PushToCardPayment'), {})),
    accounts: compileSchema(
      wrapper(spec.schema('Account'), { userId: str, holdBalance: { type: 'boolean' } }),
    ),
    transfers: compileSchema(
      wrapper(spec.schema('UsdTransfer'), { clientId: str, accountId: str, fingerprint: str }),
    ),
    payouts: compileSchema(wrapper(spec.schema('WalletPayout'), { clientId: str, accountId: str })),
    clients: compileSchema({
      type: 'object',
      required: ['clientId', 'clientSecret', 'scopes'],
      properties: { clientId: str, clientSecret: str, scopes },
    }),
    tokens: compileSchema({
      type: 'object',
      required: ['token', 'clientId', 'scopes', 'expiresAt'],
      properties: { token: str, clientId: str, scopes, expiresAt: { type: 'number' } },
    }),
    receivers: compileSchema({
      type: 'object',
      required: ['id', 'url', 'secret'],
      properties: { id: str, url: str, secret: str, disabledAt: str },
    }),
  };
  checksBySpec.set(spec, checks);
  return checks;
}

/** Every stored item, collection by collection: snapshots and state files are written from this. */
export function* snapshotEntries(state: StoreState): Generator<[CollectionName, unknown]> {
  for (const user of state.users) yield ['users', user];
  for (const id of state.p2pNotified) yield ['p2pNotified', id];
  for (const card of state.cards.values()) yield ['cards', card];
  for (const transaction of state.cardTransactions.values()) yield ['cardTransactions', transaction];
  for (const payment of state.pushToCard.values()) yield ['pushToCard', payment];
  for (const account of state.accounts.values()) yield ['accounts', account];
  for (const transfer of state.transfers.values()) yield ['transfers', transfer];
  for (const payout of state.payouts.values()) yield ['payouts', payout];
  for (const client of state.clients.values()) yield ['clients', client];
  for (const token of state.tokens.values()) yield ['tokens', token];
  for (const receiver of state.receivers.values()) yield ['receivers', receiver];
}

/** Add one checked item to a state being rebuilt. Items are trusted: check them first. */
// biome-ignore lint/suspicious/noExplicitAny: items were checked against their collection's schema
export function applyEntry(state: MockState, collection: CollectionName, item: any): void {
  if (collection === 'users') addUser(state, item);
  else if (collection === 'p2pNotified') state.p2pNotified.add(item);
  else if (collection === 'cards') state.cards.set(item.card_id, item);
  else if (collection === 'cardTransactions') state.cardTransactions.set(item.transaction_id, item);
  else if (collection === 'pushToCard') state.pushToCard.set(item.record.transaction_id, item);
  else if (collection === 'accounts') state.accounts.set(item.record.account_id, item);
  else if (collection === 'transfers') addTransfer(state, item);
  else if (collection === 'payouts') addPayout(state, item);
  else if (collection === 'clients') state.clients.set(item.clientId, item);
  else if (collection === 'tokens') state.tokens.set(item.token, item);
  else state.receivers.set(item.id, item);
}

/** Remove one item by its key (journal `del` entries: expired tokens, removed receivers, a client's reset). */
export function removeEntry(state: MockState, collection: CollectionName, key: string): void {
  if (collection === 'transfers') {
    const transfer = state.transfers.get(key);
    if (transfer) state.references.get(transfer.clientId)?.delete(transfer.record.reference);
    state.transfers.delete(key);
  } else if (collection === 'payouts') state.payouts.delete(key);
  else if (collection === 'pushToCard') state.pushToCard.delete(key);
  else if (collection === 'accounts') state.accounts.delete(key);
  else if (collection === 'tokens') state.tokens.delete(key);
  else if (collection === 'receivers') state.receivers.delete(key);
  else if (collection === 'clients') state.clients.delete(key);
}

// Compiled on first use: a mock without a state file never reads a header, and the first compile
// of a process builds Ajv itself, a cost of every start (decision 093).
let headerCheck: SchemaCheck | undefined;
const HEADER_SCHEMA: JSONSchema7 = {
  type: 'object',
  required: ['format', 'version', 'now', 'seeded'],
  properties: {
    format: { const: 'pacu-mock-state' },
    version: { const: 1 },
    now: { type: 'number' },
    seeded: {
      type: 'object',
      required: ['cardId', 'cardTransactionId', 'pushToCardId', 'merchantAccountId', 'userId'],
      properties: {
        cardId: str,
        cardTransactionId: str,
        pushToCardId: str,
        merchantAccountId: str,
        userId: str,
      },
    },
  },
};

/** Problems with a snapshot header, as `path message` strings (empty when fine). */
export function headerProblems(value: unknown): string[] {
  headerCheck ??= compileSchema(HEADER_SCHEMA);
  return headerCheck(value).map((issue) => `${issue.path} ${issue.message}`);
}

/** A payment's lifecycle as the data a state file holds (a new payment's is kept as its plan). */
function asData(item: unknown): unknown {
  if (!item || typeof item !== 'object' || !('lifecycle' in item)) return item;
  const lifecycle = item.lifecycle as Lifecycle | undefined;
  return lifecycle ? { ...item, lifecycle: { steps: lifecycle.steps, next: lifecycle.next } } : item;
}

export function toSnapshot(state: StoreState, now: number): StateSnapshot {
  const header: SnapshotHeader = { format: 'pacu-mock-state', version: 1, now, seeded: state.seeded };
  const snapshot = header as StateSnapshot;
  for (const name of COLLECTIONS) snapshot[name] = [];
  for (const [collection, item] of snapshotEntries(state)) snapshot[collection].push(asData(item));
  return structuredClone(snapshot);
}

/** Rebuild state from a snapshot object, or list what is wrong with it. */
export function fromSnapshot(
  spec: Spec,
  value: unknown,
): { state: MockState; now: number } | { problems: string[] } {
  const problems = headerProblems(value);
  if (problems.length > 0) return { problems };
  const snapshot = structuredClone(value) as StateSnapshot;
  const state = emptyState(snapshot.seeded);
  const checks = collectionChecks(spec);
  for (const name of COLLECTIONS) {
    const items = snapshot[name] ?? [];
    if (!Array.isArray(items)) return { problems: [`/${name} must be array`] };
    for (const [index, item] of items.entries()) {
      const issues = checks[name](item);
      if (issues.length > 0)
        return {
          problems: issues.map(
            (issue) => `/${name}/${index}${issue.path === '/' ? '' : issue.path} ${issue.message}`,
          ),
        };
      applyEntry(state, name, item);
    }
  }
  return { state, now: snapshot.now };
}
