import type { FinalStatus, MockClient, PaymentKind, SeededIds, WebhookReceiver } from '../../types.ts';
import { nextStep } from '../lifecycle.ts';
import { applyEntry, type CollectionName, removeEntry, snapshotEntries } from '../snapshot.ts';
import {
  addPayout,
  addTransfer,
  findReference,
  type MockState,
  type StoredAccount,
  type StoredPayout,
  type StoredPushToCard,
  type StoredToken,
  type StoredTransfer,
  type StoreView,
} from '../state.ts';

/**
 * One line of the journal: every write the store makes, as data. Replaying the lines in order on
 * top of a snapshot gives the state back; each `put` is a whole item (last one per key wins), so
 * a snapshot taken while writes go on (compaction) replays to the right state too.
 */
export type JournalEntry =
  | ['put', CollectionName, unknown]
  | ['del', CollectionName, string]
  | ['clear', { now: number; seeded: SeededIds }]
  | ['now', number];

/** Where the store's writes go before an answer may leave: the journal file, or nowhere. */
export interface JournalSink {
  append(entry: JournalEntry): void;
  /**
   * Resolves once everything appended so far is written (and fsynced when asked); undefined when
   * nothing is waiting, so an answer that wrote nothing leaves without a turn of the microtask queue.
   */
  committed(): Promise<void> | undefined;
}

const NO_JOURNAL: JournalSink = { append() {}, committed: () => undefined };

export type { StoreView } from '../state.ts';

type StoredPayment = StoredTransfer | StoredPayout | StoredPushToCard;

/**
 * The mock's state behind one object that never changes identity: reset and load swap what is
 * inside it, not the store everyone holds. Every write method journals itself, so no caller can
 * forget to make a change durable; readers use `store.view`.
 */
export class MockStore {
  private state: MockState;
  private journal: JournalSink = NO_JOURNAL;
  private changes = 0;
  /** JSON text of records read again and again (list pages), dropped whenever the store writes one. */
  private texts = new WeakMap<object, string>();

  constructor(state: MockState) {
    this.state = state;
  }

  get view(): StoreView {
    return this.state;
  }

  /** Counts writes; lets tests and compaction see that something changed. */
  get writeCount(): number {
    return this.changes;
  }

  /** Send every later write to `sink` (the journal file once it is open). */
  attachJournal(sink: JournalSink): void {
    this.journal = sink;
  }

  /** Resolves once every write so far is durable (undefined: nothing to wait for). */
  committed(): Promise<void> | undefined {
    return this.journal.committed();
  }

  private record(entry: JournalEntry): void {
    this.changes++;
    this.journal.append(entry);
  }

  private put(collection: CollectionName, item: unknown): void {
    if (item && typeof item === 'object') {
      this.texts.delete(item);
      if ('record' in item && item.record && typeof item.record === 'object') this.texts.delete(item.record);
    }
    this.record(['put', collection, item]);
  }

  /** `item` (a record of the current state) as JSON, rendered once until the store writes it. */
  rendered(item: object): string {
    let text = this.texts.get(item);
    if (text === undefined) {
      text = JSON.stringify(item);
      this.texts.set(item, text);
    }
    return text;
  }

  findReference(clientId: string, reference: string): StoredTransfer | undefined {
    return findReference(this.state, clientId, reference);
  }

  /** The whole state replaced (reset, load): journaled as `clear` and every item of the new state. */
  replace(state: MockState, now: number): void {
    this.state = state;
    this.record(['clear', { now, seeded: state.seeded }]);
    for (const [collection, item] of snapshotEntries(state)) this.put(collection, item);
  }

  /** The manual clock moved: journaled so a restart resumes at the same mock time. */
  setNow(now: number): void {
    this.record(['now', now]);
  }

  addTransfer(stored: StoredTransfer): void {
    addTransfer(this.state, stored);
    this.put('transfers', stored);
  }

  addPayout(stored: StoredPayout): void {
    addPayout(this.state, stored);
    this.put('payouts', stored);
  }

  addPushToCard(stored: StoredPushToCard): void {
    this.state.pushToCard.set(stored.record.transaction_id, stored);
    this.put('pushToCard', stored);
  }

  addAccount(stored: StoredAccount): void {
    this.state.accounts.set(stored.record.account_id, stored);
    this.put('accounts', stored);
  }

  addToken(token: StoredToken): void {
    this.state.tokens.set(token.token, token);
    this.put('tokens', token);
  }

  deleteToken(token: string): void {
    if (this.state.tokens.delete(token)) this.record(['del', 'tokens', token]);
  }

  putClient(client: MockClient): void {
    this.state.clients.set(client.clientId, client);
    this.put('clients', client);
  }

  putReceiver(receiver: WebhookReceiver): void {
    this.state.receivers.set(receiver.id, receiver);
    this.put('receivers', receiver);
  }

  /**
   * Forget what one client created: its transfers (and references), payouts, accounts and
   * receivers. Each removal is journaled; the seeded data and other clients' records stay.
   */
  removeClientData(clientId: string): void {
    const remove = (collection: CollectionName, keys: string[]): void => {
      for (const key of keys) {
        removeEntry(this.state, collection, key);
        this.record(['del', collection, key]);
      }
    };
    const owned = <T extends { clientId?: string }>(map: Iterable<[string, T]>): string[] =>
      [...map].filter(([, item]) => item.clientId === clientId).map(([key]) => key);
    remove('transfers', owned(this.state.transfers));
    remove('payouts', owned(this.state.payouts));
    remove('accounts', owned(this.state.accounts));
    remove('receivers', owned(this.state.receivers));
  }

  /** Forget one record past retention (journaled, so the state file forgets it too). */
  removeRecord(collection: 'transfers' | 'payouts' | 'pushToCard' | 'accounts', key: string): void {
    removeEntry(this.state, collection, key);
    this.record(['del', collection, key]);
  }

  deleteReceiver(id: string): boolean {
    const removed = this.state.receivers.delete(id);
    if (removed) this.record(['del', 'receivers', id]);
    return removed;
  }

  /** True the first time for a user (the p2p.validated event is sent once per user). */
  markP2pNotified(userId: string): boolean {
    if (this.state.p2pNotified.has(userId)) return false;
    this.state.p2pNotified.add(userId);
    this.put('p2pNotified', userId);
    return true;
  }

  payment(kind: PaymentKind, id: string): StoredPayment | undefined {
    if (kind === 'usd_transfer') return this.state.transfers.get(id);
    if (kind === 'wallet_payout') return this.state.payouts.get(id);
    return this.state.pushToCard.get(id);
  }

  /** Move a payment to the next step of its lifecycle; the whole payment is journaled again. */
  applyStep(kind: PaymentKind, payment: StoredPayment, status: FinalStatus): void {
    payment.record.transaction_status = status;
    const lifecycle = payment.lifecycle;
    if (lifecycle) {
      lifecycle.next++;
      if (nextStep(lifecycle) === undefined) delete payment.lifecycle;
    }
    const collection =
      kind === 'usd_transfer' ? 'transfers' : kind === 'wallet_payout' ? 'payouts' : 'pushToCard';
    this.put(collection, payment);
  }

  /** Replay one journal entry while loading (no journaling: the entry is already on disk). */
  static replay(state: MockState, entry: JournalEntry, fresh: (seeded: SeededIds) => MockState): MockState {
    const [op] = entry;
    if (op === 'put') applyEntry(state, entry[1], entry[2]);
    else if (op === 'del') removeEntry(state, entry[1], entry[2]);
    else if (op === 'clear') return fresh(entry[1].seeded);
    return state;
  }
}
