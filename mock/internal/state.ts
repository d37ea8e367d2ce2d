import type {
  Account,
  CardTransaction,
  PushToCardPayment,
  Scope,
  UsdTransfer,
  User,
  VirtualCard,
  WalletPayout,
} from '../../spec/index.ts';
import type { FinalStatus, MockClient, SeededIds, WebhookReceiver } from '../types.ts';
import { type ReadonlyShardedMap, ShardedMap } from './sharded-map.ts';
import { StringPool } from './string-pool.ts';

/** A lifecycle's step: when it falls due on the mock clock (ms) and the status it brings. */
export interface LifecycleStep {
  at: number;
  status: FinalStatus;
}

/** The transitions of a payment, `next` the first still ahead (as state files write them). */
export interface Lifecycle {
  readonly steps: readonly LifecycleStep[];
  next: number;
}

export interface StoredAccount {
  record: Account;
  userId: string;
  holdBalance: boolean;
  /** The client that created it; seeded accounts belong to everyone. */
  clientId?: string;
}

export interface StoredTransfer {
  record: UsdTransfer;
  clientId: string;
  accountId: string;
  /** Hash of the canonical request body (a reused reference must carry the same one), or `ECHOED`. */
  fingerprint: string;
  lifecycle?: Lifecycle;
}

export interface StoredPayout {
  record: WalletPayout;
  clientId: string;
  accountId: string;
  lifecycle?: Lifecycle;
}

export interface StoredPushToCard {
  record: PushToCardPayment;
  lifecycle?: Lifecycle;
}

export interface StoredToken {
  token: string;
  clientId: string;
  scopes: Scope[];
  expiresAt: number;
}

/**
 * Everything the mock knows. Maps keyed by id, so every lookup is O(1) however much is stored; the
 * payment collections, which grow to millions, are sharded so no insert rehashes them whole.
 */
export interface MockState {
  seeded: SeededIds;
  users: User[];
  usersById: Map<string, User>;
  /** Users whose p2p.validated event was sent already (sent once per user). */
  p2pNotified: Set<string>;
  cards: Map<string, VirtualCard>;
  cardTransactions: Map<string, CardTransaction>;
  pushToCard: ShardedMap<StoredPushToCard>;
  accounts: Map<string, StoredAccount>;
  transfers: ShardedMap<StoredTransfer>;
  /** clientId → reference → transfer: references are scoped per client (and no key strings are built). */
  references: Map<string, ShardedMap<StoredTransfer>>;
  payouts: ShardedMap<StoredPayout>;
  clients: Map<string, MockClient>;
  tokens: Map<string, StoredToken>;
  receivers: Map<string, WebhookReceiver>;
}

export function emptyState(seeded: SeededIds): MockState {
  return {
    seeded,
    users: [],
    usersById: new Map(),
    p2pNotified: new Set(),
    cards: new Map(),
    cardTransactions: new Map(),
    pushToCard: new ShardedMap(),
    accounts: new Map(),
    transfers: new ShardedMap(),
    references: new Map(),
    payouts: new ShardedMap(),
    clients: new Map(),
    tokens: new Map(),
    receivers: new Map(),
  };
}

/**
 * The owner of transfers and payouts loaded from a recording: the sandbox made them for a client the
 * redacted recording no longer names, so every client's replay of their reference finds them.
 */
export const RECORDED_OWNER = '';

export function findReference(
  state: MockState,
  clientId: string,
  reference: string,
): StoredTransfer | undefined {
  return (
    state.references.get(clientId)?.get(reference) ?? state.references.get(RECORDED_OWNER)?.get(reference)
  );
}

// One pool for every state (resets and loads build new states): the strings stay equal anyway.
const sharedStrings = new StringPool();
const share = (value: string): string => sharedStrings.share(value);

export function addTransfer(state: MockState, stored: StoredTransfer): void {
  const record = stored.record;
  record.account_type = share(record.account_type) as typeof record.account_type;
  record.transfer_type = share(record.transfer_type) as typeof record.transfer_type;
  record.transaction_status = share(record.transaction_status) as typeof record.transaction_status;
  record.routing_number = share(record.routing_number);
  record.account_number = share(record.account_number);
  record.recipient_email = share(record.recipient_email);
  record.recipient_name = share(record.recipient_name);
  // A recorded sandbox may leave a field out of its records (a description the request left out).
  if (record.description !== undefined) record.description = share(record.description);
  record.transaction_date = share(record.transaction_date);
  stored.clientId = share(stored.clientId);
  stored.accountId = share(stored.accountId);
  state.transfers.set(stored.record.transaction_id, stored);
  let byReference = state.references.get(stored.clientId);
  if (!byReference) {
    byReference = new ShardedMap();
    state.references.set(stored.clientId, byReference);
  }
  byReference.set(stored.record.reference, stored);
}

export function addPayout(state: MockState, stored: StoredPayout): void {
  const record = stored.record;
  record.transaction_status = share(record.transaction_status) as typeof record.transaction_status;
  if (record.recipient_name !== undefined) record.recipient_name = share(record.recipient_name);
  if (record.description !== undefined) record.description = share(record.description);
  record.transaction_date = share(record.transaction_date);
  stored.clientId = share(stored.clientId);
  stored.accountId = share(stored.accountId);
  state.payouts.set(record.transaction_id, stored);
}

/** Add a user, or replace the one with the same id (journal replays may put a user twice). */
export function addUser(state: MockState, user: User): void {
  const known = state.usersById.get(user.user_id);
  if (known) state.users[state.users.indexOf(known)] = user;
  else state.users.push(user);
  state.usersById.set(user.user_id, user);
}

/** What readers see: the maps of the current state, read-only. */
export interface StoreView {
  readonly seeded: Readonly<SeededIds>;
  readonly users: readonly User[];
  readonly usersById: ReadonlyMap<string, User>;
  readonly p2pNotified: ReadonlySet<string>;
  readonly cards: ReadonlyMap<string, VirtualCard>;
  readonly cardTransactions: ReadonlyMap<string, CardTransaction>;
  readonly pushToCard: ReadonlyShardedMap<StoredPushToCard>;
  readonly accounts: ReadonlyMap<string, StoredAccount>;
  readonly transfers: ReadonlyShardedMap<StoredTransfer>;
  readonly payouts: ReadonlyShardedMap<StoredPayout>;
  readonly clients: ReadonlyMap<string, MockClient>;
  readonly tokens: ReadonlyMap<string, StoredToken>;
  readonly receivers: ReadonlyMap<string, WebhookReceiver>;
}
