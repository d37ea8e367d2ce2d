import type { CardTransaction, User, VirtualCard } from '../../../spec/index.ts';
import type { MockClient, Scenario, SeededIds, StateSnapshot, WebhookReceiver } from '../../types.ts';
import type { CoverageRecorder } from '../coverage.ts';
import type { FaultRegistry } from '../faults.ts';
import type { RequestJournal } from '../request-journal.ts';
import type {
  MockState,
  StoredAccount,
  StoredPayout,
  StoredPushToCard,
  StoredToken,
  StoredTransfer,
} from '../state.ts';
import type { WebhookDispatcher } from '../webhooks.ts';
import type { Maybe } from './maybe.ts';

// The one seam behind every read and write of mock state (decision 160). A backend in memory
// answers with plain values (no promise, no turn of the event loop); one a network away answers
// with promises. Callers handle both through `Maybe` (maybe.ts), so the memory default pays nothing.

/** What one request reads, asked together: a network backend answers them in one round trip. */
export interface ReadKeys {
  /** A bearer token; `reference` is looked up for its client. */
  token?: string;
  /** The client named by HTTP Basic. */
  clientId?: string;
  accountId?: string;
  reference?: string;
  cardId?: string;
  cardTransactionId?: string;
  pushToCardId?: string;
  userId?: string;
  usersPage?: { start: number; size: number };
}

/** The answers to {@link ReadKeys}: undefined where nothing is stored under the key. */
export interface Found {
  token?: StoredToken;
  client?: MockClient;
  account?: StoredAccount;
  /** The transfer the token's client made under `reference` (or a recorded one). */
  reference?: StoredTransfer;
  /**
   * The reference was not looked up: the insert decides whether it was used (a store that keeps the
   * token and the account). A handler that refuses the request before its insert reads it first.
   */
  referenceUnread?: true;
  card?: VirtualCard;
  cardTransaction?: CardTransaction;
  pushToCard?: StoredPushToCard;
  user?: User;
  users?: { items: readonly User[]; total: number };
}

/** A webhook event a write makes with it: its type, body and the client it belongs to. */
export interface StoreEvent {
  type: string;
  payload: unknown;
  clientId: string | undefined;
}

/** The records: keyed reads, and writes that state their intent. */
export interface RecordStore {
  read(keys: ReadKeys): Maybe<Found>;
  /**
   * Store a transfer, or find the one its client already made under its reference: the store's
   * guarantee, not the caller's (memory: no await between lookup and insert; PostgreSQL: a unique key).
   */
  insertTransfer(stored: StoredTransfer): Maybe<{ stored: StoredTransfer; created: boolean }>;
  addPayout(stored: StoredPayout): Maybe<void>;
  addPushToCard(stored: StoredPushToCard): Maybe<void>;
  addAccount(stored: StoredAccount): Maybe<void>;
  addToken(token: StoredToken): Maybe<void>;
  deleteToken(token: string): Maybe<void>;
  /** Forget tokens that expired by `now`. */
  sweepTokens(now: number): Maybe<void>;
  /**
   * The first read of a user's p2p status: marks the user and puts `event` in the webhook outbox
   * as one write, true once per user; later calls write nothing (the event is sent once, exactly).
   */
  markP2pNotified(userId: string, event: StoreEvent): Maybe<boolean>;
  putClient(client: MockClient): Maybe<void>;
  receivers(): Maybe<WebhookReceiver[]>;
  receiver(id: string): Maybe<WebhookReceiver | undefined>;
  putReceiver(receiver: WebhookReceiver): Maybe<void>;
  deleteReceiver(id: string): Maybe<boolean>;
  /** `item` (a record this store handed out) as JSON text, rendered once where the backend can. */
  rendered(item: object): string;
}

/** Everything the mock keeps, behind one object that never changes identity. */
export interface StateStore {
  /** `memory`, `file` or `postgres`. */
  readonly kind: 'memory' | 'file' | 'postgres';
  /** Shared by other processes (a database): the control API is guarded, caches are not trusted. */
  readonly shared: boolean;
  readonly seeded: SeededIds;
  /** This open seeded the store (always, in memory): what a start installs once goes in now. */
  readonly seededNow: boolean;
  readonly records: RecordStore;
  /** The mock's time and the work due on it (lifecycle steps, webhook retries). */
  readonly clock: StoreClock;
  readonly faults: FaultRegistry;
  readonly journal: RequestJournal;
  readonly coverage: CoverageRecorder;
  /** The outbox: webhook events and their deliveries. */
  readonly webhooks: WebhookDispatcher;
  /** The scenario new payments follow: a shared store's as of this request's read. */
  scenario(): Scenario;
  setScenario(scenario: Scenario): Maybe<void>;
  /** Back to `fresh()` (clients, tokens, receivers and the clock stay); with a client, only its data goes. */
  reset(fresh: () => MockState, clientId?: string): Maybe<void>;
  dump(): Maybe<StateSnapshot>;
  load(state: MockState, now: number): Maybe<void>;
  /** What the store is, and (a database) its round trips so far by what asked for them. */
  stats(): { kind: string; shared: boolean; roundTrips?: Record<string, number> };
  /** Resolves once every write so far is durable; undefined when nothing waits (decision 040). */
  committed(): Promise<void> | undefined;
  close(): Promise<void>;
}

/** The clock as the store keeps it: a manual clock's now is state (a shared store moves the cluster). */
export interface StoreClock {
  readonly mode: 'real' | 'manual';
  /** The time as of this request's read (a shared manual clock: as the last read saw it). */
  now(): number;
  /** The time as the store has it now (a shared manual clock: asked of the database). */
  current(): Maybe<number>;
  /** Manual clocks only: move forward, running every step that falls due, each at its own time. */
  advance(ms: number): Maybe<number>;
}
