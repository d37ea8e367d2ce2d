import type { PaymentKind } from '../../types.ts';
import type { StoredPayment } from '../lifecycle.ts';
import { RECORDED_OWNER } from '../state.ts';
import type { MockStore } from './mock-store.ts';
import type { RetainedKind } from './retention.ts';
import type { Found, ReadKeys, RecordStore, StoreEvent } from './state-store.ts';

/**
 * The records of the memory and file stores: the maps of one process, answered at once. Every
 * write goes through `maps`, which journals it (the file store's journal, or nowhere).
 */
export function memoryRecords(
  maps: MockStore,
  arm: (kind: PaymentKind, payment: StoredPayment) => void,
  made: (kind: RetainedKind, id: string) => void,
  emit: (event: StoreEvent) => void,
): RecordStore {
  return {
    read(keys: ReadKeys): Found {
      const view = maps.view;
      const found: Found = {};
      if (keys.token !== undefined) {
        const token = view.tokens.get(keys.token);
        if (token) found.token = token;
      }
      if (keys.clientId !== undefined) {
        const client = view.clients.get(keys.clientId);
        if (client) found.client = client;
      }
      if (keys.accountId !== undefined) {
        const account = view.accounts.get(keys.accountId);
        if (account) found.account = account;
      }
      if (keys.reference !== undefined) {
        const transfer = maps.findReference(found.token?.clientId ?? RECORDED_OWNER, keys.reference);
        if (transfer) found.reference = transfer;
      }
      if (keys.cardId !== undefined) {
        const card = view.cards.get(keys.cardId);
        if (card) found.card = card;
      }
      if (keys.cardTransactionId !== undefined) {
        const transaction = view.cardTransactions.get(keys.cardTransactionId);
        if (transaction) found.cardTransaction = transaction;
      }
      if (keys.pushToCardId !== undefined) {
        const payment = view.pushToCard.get(keys.pushToCardId);
        if (payment) found.pushToCard = payment;
      }
      if (keys.userId !== undefined) {
        const user = view.usersById.get(keys.userId);
        if (user) found.user = user;
      }
      if (keys.usersPage) {
        const { start, size } = keys.usersPage;
        found.users = { items: view.users.slice(start, start + size), total: view.users.length };
      }
      return found;
    },
    insertTransfer(stored) {
      // No await from lookup to insert: concurrent identical requests can never both create.
      const existing = maps.findReference(stored.clientId, stored.record.reference);
      if (existing) return { stored: existing, created: false };
      maps.addTransfer(stored);
      made('transfers', stored.record.transaction_id);
      arm('usd_transfer', stored);
      return { stored, created: true };
    },
    addPayout(stored) {
      maps.addPayout(stored);
      made('payouts', stored.record.transaction_id);
      arm('wallet_payout', stored);
    },
    addPushToCard(stored) {
      maps.addPushToCard(stored);
      made('pushToCard', stored.record.transaction_id);
      arm('push_to_card', stored);
    },
    addAccount(stored) {
      maps.addAccount(stored);
      made('accounts', stored.record.account_id);
    },
    addToken: (token) => maps.addToken(token),
    deleteToken: (token) => maps.deleteToken(token),
    sweepTokens(now) {
      for (const [key, stored] of maps.view.tokens) if (stored.expiresAt <= now) maps.deleteToken(key);
    },
    markP2pNotified(userId, event) {
      if (!maps.markP2pNotified(userId)) return false;
      emit(event);
      return true;
    },
    putClient: (client) => maps.putClient(client),
    receivers: () => [...maps.view.receivers.values()],
    receiver: (id) => maps.view.receivers.get(id),
    putReceiver: (receiver) => maps.putReceiver(receiver),
    deleteReceiver: (id) => maps.deleteReceiver(id),
    rendered: (item) => maps.rendered(item),
  };
}
