import type { PaymentKind, WebhookReceiver } from '../../../types.ts';
import { nextStep, type StoredPayment } from '../../lifecycle.ts';
import type { StoredTransfer } from '../../state.ts';
import type { Found, ReadKeys, RecordStore } from '../state-store.ts';
import type { PgClient } from './pg-client.ts';
import { eventRows, outboxCtes, outboxEvent } from './pg-events.ts';
import { grouped } from './pg-grouped.ts';

/** A transfer's key: one per client and reference (a statement carries a key once). */
const transferKey = (clientId: string, reference: string): string => `${clientId}\u0000${reference}`;

/** The payment tables and the due row a new payment's lifecycle gets, in one statement with it. */
export const PAYMENT_TABLES: Record<PaymentKind, string> = {
  usd_transfer: 'pacu_transfers',
  wallet_payout: 'pacu_payouts',
  push_to_card: 'pacu_push_to_card',
};

/** When the payment's next step falls due, or null (it stays processing). */
export const nextDue = (payment: StoredPayment): number | null => nextStep(payment.lifecycle)?.at ?? null;

/** Where the PostgreSQL records hand what they cannot do in SQL: reads with the config stamp, new due work. */
export interface PgRecordHooks {
  read(keys: ReadKeys): Promise<Found>;
  /** A payment with a lifecycle was stored: its first step may be due now. */
  armed(at: number): void;
  /** A write put an event in the outbox: deliver it now. */
  emitted(): void;
  now(): number;
}

/**
 * The records in PostgreSQL. Every write is one statement, committed before it resolves; what must
 * happen once for the cluster (a reference, a p2p notification) is a unique key, not a check.
 */
export function pgRecords(db: PgClient, hooks: PgRecordHooks): RecordStore {
  const texts = new WeakMap<object, string>();
  const dueSql = (kind: PaymentKind, inserted: string, at: string): string =>
    `INSERT INTO pacu_due (kind, payment_id, at) SELECT '${kind}', transaction_id, ${at}::bigint FROM ${inserted} WHERE ${at}::bigint IS NOT NULL`;
  const addPayment = async (kind: PaymentKind, payment: StoredPayment, clientId?: string): Promise<void> => {
    const at = nextDue(payment);
    const owner = clientId === undefined ? '' : ', client_id';
    const ownerValue = clientId === undefined ? '' : ', $5';
    await db.query(`add-${kind}`, {
      name: `pacu-add-${kind}`,
      text: `WITH p AS (INSERT INTO ${PAYMENT_TABLES[kind]} (transaction_id, created_at, doc${owner}) VALUES ($1, $2, $3${ownerValue}) RETURNING transaction_id) ${dueSql(kind, 'p', '$4')}`,
      values: [
        payment.record.transaction_id,
        hooks.now(),
        payment,
        at,
        ...(clientId === undefined ? [] : [clientId]),
      ],
    });
    if (at !== null) hooks.armed(at);
  };
  // Transfers that arrive together go in one statement (pg-grouped.ts), in key order so that two
  // replicas' statements never wait on each other. DO UPDATE locks and returns the row another
  // transaction committed first; a row made here is not sent back. A transfer a recording left to
  // everyone (owner '') answers when the client has none under the reference.
  const insertTransfer = grouped<StoredTransfer, { doc: StoredTransfer | null; created: boolean }>(
    async (items) => {
      const rows = await db.query<{
        client: string;
        ref: string;
        doc: StoredTransfer | null;
        created: boolean;
      }>('insert-transfer', {
        name: 'pacu-insert-transfers',
        text: `WITH input AS (
          SELECT * FROM jsonb_to_recordset($1::jsonb) AS i(n int, id text, client text, ref text, made bigint, at bigint, doc jsonb)
        ), shared AS (
          SELECT i.n, i.client, i.ref, s.doc FROM input i JOIN pacu_transfers s ON s.client_id = '' AND s.reference = i.ref
          WHERE i.client <> '' AND NOT EXISTS (SELECT 1 FROM pacu_transfers o WHERE o.client_id = i.client AND o.reference = i.ref)
        ), t AS (
          INSERT INTO pacu_transfers (transaction_id, client_id, reference, created_at, doc)
          SELECT id, client, ref, made, doc FROM input i WHERE NOT EXISTS (SELECT 1 FROM shared s WHERE s.n = i.n)
          ORDER BY client, ref
          ON CONFLICT (client_id, reference) DO UPDATE SET client_id = EXCLUDED.client_id
          RETURNING client_id, reference, transaction_id, CASE WHEN xmax = 0 THEN NULL ELSE doc END AS doc, (xmax = 0) AS created
        ), d AS (
          INSERT INTO pacu_due (kind, payment_id, at)
          SELECT 'usd_transfer', t.transaction_id, i.at FROM t JOIN input i ON i.id = t.transaction_id
          WHERE t.created AND i.at IS NOT NULL
        )
        SELECT client_id AS client, reference AS ref, doc, created FROM t
        UNION ALL SELECT client, ref, doc, false FROM shared`,
        values: [
          JSON.stringify(
            items.map((stored, n) => ({
              n,
              id: stored.record.transaction_id,
              client: stored.clientId,
              ref: stored.record.reference,
              made: hooks.now(),
              at: nextDue(stored),
              doc: stored,
            })),
          ),
        ],
      });
      const byKey = new Map(rows.map((row) => [transferKey(row.client, row.ref), row]));
      return items.map((stored) => {
        const row = byKey.get(transferKey(stored.clientId, stored.record.reference));
        if (!row) throw new Error('the transfer insert returned no row');
        return row;
      });
    },
    (stored) => transferKey(stored.clientId, stored.record.reference),
  );
  return {
    read: (keys) => hooks.read(keys),
    insertTransfer: async (stored) => {
      const row = await insertTransfer(stored);
      const at = nextDue(stored);
      if (row.created && at !== null) hooks.armed(at);
      return row.created ? { stored, created: true } : { stored: row.doc as StoredTransfer, created: false };
    },
    addPayout: (stored) => addPayment('wallet_payout', stored, stored.clientId),
    addPushToCard: (stored) => addPayment('push_to_card', stored),
    async addAccount(stored) {
      await db.query('add-account', {
        name: 'pacu-add-account',
        text: 'INSERT INTO pacu_accounts (account_id, client_id, created_at, doc) VALUES ($1, $2, $3, $4)',
        values: [stored.record.account_id, stored.clientId ?? null, hooks.now(), stored],
      });
    },
    async addToken(token) {
      await db.query('add-token', {
        name: 'pacu-add-token',
        text: 'INSERT INTO pacu_tokens (token, client_id, expires_at, doc) VALUES ($1, $2, $3, $4)',
        values: [token.token, token.clientId, token.expiresAt, token],
      });
    },
    async deleteToken(token) {
      await db.query('delete-token', { text: 'DELETE FROM pacu_tokens WHERE token = $1', values: [token] });
    },
    async sweepTokens(now) {
      await db.query('sweep-tokens', {
        text: 'DELETE FROM pacu_tokens WHERE expires_at <= $1',
        values: [now],
      });
    },
    async markP2pNotified(userId, { type, payload, clientId }) {
      // The mark and the event in one statement: both happen, or neither (a retry then sends it).
      const [row] = await db.query<{ made: string }>('p2p-notified', {
        name: 'pacu-p2p-notified',
        text: `WITH marked AS (
            INSERT INTO pacu_p2p_notified (user_id) VALUES ($1) ON CONFLICT DO NOTHING RETURNING user_id
          ), events AS (${eventRows('$2')} WHERE EXISTS (SELECT 1 FROM marked)), ${outboxCtes('events')}
          SELECT count(*) AS made FROM events`,
        values: [userId, JSON.stringify([outboxEvent(type, payload, clientId, hooks.now())])],
      });
      const made = Number(row?.made ?? 0) > 0;
      if (made) hooks.emitted();
      return made;
    },
    async putClient(client) {
      await db.query('put-client', {
        text: 'INSERT INTO pacu_clients (client_id, doc) VALUES ($1, $2) ON CONFLICT (client_id) DO UPDATE SET doc = EXCLUDED.doc',
        values: [client.clientId, client],
      });
    },
    async receivers() {
      const rows = await db.query<{ doc: WebhookReceiver }>('receivers', {
        text: 'SELECT doc FROM pacu_receivers ORDER BY id',
      });
      return rows.map((row) => row.doc);
    },
    async receiver(id) {
      const [row] = await db.query<{ doc: WebhookReceiver }>('receivers', {
        text: 'SELECT doc FROM pacu_receivers WHERE id = $1',
        values: [id],
      });
      return row?.doc;
    },
    async putReceiver(receiver) {
      await db.query('put-receiver', {
        text: 'INSERT INTO pacu_receivers (id, client_id, doc) VALUES ($1, $2, $3) ON CONFLICT (id) DO UPDATE SET doc = EXCLUDED.doc',
        values: [receiver.id, receiver.clientId ?? null, receiver],
      });
    },
    async deleteReceiver(id) {
      // Its deliveries still pending go with it: no one will make them (one mock skips them too).
      const rows = await db.query('delete-receiver', {
        text: `WITH r AS (DELETE FROM pacu_receivers WHERE id = $1 RETURNING id), d AS (
            UPDATE pacu_deliveries SET state = 'dropped', lease_until = NULL WHERE state = 'pending' AND receiver_id IN (SELECT id FROM r)
          ) SELECT id FROM r`,
        values: [id],
      });
      return rows.length > 0;
    },
    rendered(item) {
      // A kept page hands out the same records again and again: each is rendered once.
      let text = texts.get(item);
      if (text === undefined) {
        text = JSON.stringify(item);
        texts.set(item, text);
      }
      return text;
    },
  };
}
