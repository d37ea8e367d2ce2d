import { hash } from 'node:crypto';
import {
  isAbaRoutingNumber,
  type UsdTransfer,
  type UsdTransferRequest,
  type WalletPayout,
  type WalletPayoutRequest,
} from '../../../spec/index.ts';
import type { MockContext } from '../context.ts';
import { okReply as ok } from '../envelope.ts';
import { MockHttpError, type MockReply } from '../http-types.ts';
import { lifecycleFor } from '../lifecycle.ts';
import type { StoredAccount, StoredPayout, StoredTransfer } from '../state.ts';
import { after, andThen } from '../store/maybe.ts';
import type { OperationHandler } from './handler.ts';
import { said, shaped } from './learned-shape.ts';

/** pacu's exact replays carry no header of their own (a recording may show one). */
export const NO_HEADERS: Readonly<Record<string, string>> = Object.freeze({});

// Literals, so a million records share one copy of each enum value instead of one string each.
const ACCOUNT_TYPES = ['CHECKING', 'SAVINGS', 'BUSINESS'] as const;

/** The account funds come from: it must exist and hold a balance (else the merchant's id is due). */
function sourceAccount(
  context: MockContext,
  found: StoredAccount | undefined,
  accountId: string,
  clientId: string,
): StoredAccount {
  // Another client's account is not there for this one: parallel CI jobs never see each other.
  // Without a token (an operation a recorded sandbox answered without one) no client is known.
  const account =
    found?.clientId === undefined || found.clientId === clientId || clientId === '' ? found : undefined;
  if (!account)
    throw new MockHttpError(
      400,
      `Invalid request: account_id ${accountId} names no account`,
      undefined,
      'unknown-id-in-body',
    );
  if (!account.holdBalance) {
    throw new MockHttpError(
      400,
      `Invalid request: account ${accountId} was created with hold_balance false; pass the merchant's account id (${context.store.seeded.merchantAccountId}) as account_id`,
      undefined,
      'not-a-funds-source',
    );
  }
  return account;
}

/** `["key",` of each field name seen, so a transfer's fingerprint quotes none of its usual keys. */
const keyOpenings = new Map<string, string>();
const KEY_OPENINGS_KEPT = 256;

function keyOpening(key: string): string {
  let opening = keyOpenings.get(key);
  if (opening === undefined) {
    opening = `[${JSON.stringify(key)},`;
    if (keyOpenings.size < KEY_OPENINGS_KEPT) keyOpenings.set(key, opening);
  }
  return opening;
}

/** A string as JSON.stringify writes it: in quotes as it is, unless a character needs escaping. */
function quoted(text: string): string {
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    // Control characters, quote, backslash, and surrogates (a lone one is escaped).
    if (code < 0x20 || code === 0x22 || code === 0x5c || (code >= 0xd800 && code <= 0xdfff))
      return JSON.stringify(text);
  }
  return `"${text}"`;
}

/** A value as JSON.stringify writes it inside an array (where undefined becomes null). */
function valueText(value: unknown): string {
  if (typeof value === 'string') return quoted(value);
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return JSON.stringify(value) ?? 'null';
}

/**
 * Same body, same hash: keys sorted so field order does not count as a different request. The
 * hashed text is `JSON.stringify` of the sorted `[key, value]` pairs (state files hold these
 * hashes, so the text must not change), written a pair at a time: stringify spent most of its time
 * on the pairs' own arrays, and this runs on every transfer.
 */
export function fingerprint(body: Record<string, unknown>): string {
  const keys = Object.keys(body);
  // Insertion sort in place: ten-odd keys, usually already in order, and no allocation.
  for (let index = 1; index < keys.length; index++) {
    const key = keys[index] as string;
    let at = index - 1;
    while (at >= 0 && (keys[at] as string) > key) {
      keys[at + 1] = keys[at] as string;
      at--;
    }
    keys[at + 1] = key;
  }
  // Each pair is one string, joined once: a chain of concatenations made a string per piece.
  const pairs = new Array<string>(keys.length);
  for (let index = 0; index < keys.length; index++) {
    const key = keys[index] as string;
    pairs[index] = keyOpening(key) + valueText(body[key]);
  }
  const text = pairs.length === 0 ? '[]' : `[${pairs.join('],')}]]`;
  // The one-shot digest: a Hash object per transfer cost as much as the rest of the fingerprint.
  const digest = hash('sha256', text, 'base64url');
  // A slice of 22 would keep the whole 43-character digest alive beside every stored transfer.
  return Buffer.from(digest.slice(0, 22), 'latin1').toString('latin1');
}

/**
 * In place of a fingerprint: the request body was the record's echo and its account_id, nothing
 * else, so the record itself says what the body was and no hash is taken (decision 203).
 */
export const ECHOED = '';

/** The request fields a transfer's record echoes, with account_id (kept beside it). */
const ECHO_FIELDS = 10;

/** Whether `body` is, field for field, the request that `record` and `accountId` echo. */
function isEcho(body: Record<string, unknown>, record: UsdTransfer, accountId: string): boolean {
  let fields = 0;
  for (const _ in body) fields++;
  return (
    fields === ECHO_FIELDS &&
    body.reference === record.reference &&
    body.amount === record.amount &&
    body.account_id === accountId &&
    body.account_number === record.account_number &&
    body.routing_number === record.routing_number &&
    body.account_type === record.account_type &&
    body.transfer_type === record.transfer_type &&
    body.recipient_name === record.recipient_name &&
    body.recipient_email === record.recipient_email &&
    body.description === record.description
  );
}

/**
 * Whether `body` is the request body the stored transfer was made from. An echoed one was exactly
 * its record's ten fields, so only a body that echoes the same record is the same JSON.
 */
function sameBody(stored: StoredTransfer, body: Record<string, unknown>): boolean {
  if (stored.fingerprint === ECHOED) return isEcho(body, stored.record, stored.accountId);
  return fingerprint(body) === stored.fingerprint;
}

/** The answer to a reference used before: the first transfer again, or 409 for another body. */
function replayed(
  context: MockContext,
  existing: StoredTransfer,
  body: Record<string, unknown>,
  reference: string,
): MockReply {
  const { behaviour } = context;
  if (behaviour.reusedReference === 'refused' && !sameBody(existing, body)) {
    throw new MockHttpError(
      409,
      `reference ${reference} was already used with a different request body`,
      undefined,
      'reused-reference',
    );
  }
  const reply = ok(behaviour.replay.message ?? 'Transfer already exists for this reference', existing.record);
  return behaviour.replay.headers === NO_HEADERS
    ? reply
    : { ...reply, headers: { ...behaviour.replay.headers } };
}

/** POST /payments/usd/direct, idempotent on `reference` per client (the store's guarantee). */
export const usdTransfer: OperationHandler = (context, { body, token, found }) => {
  const request = body as UsdTransferRequest;
  if (!isAbaRoutingNumber(request.routing_number)) {
    throw new MockHttpError(
      400,
      `Invalid request: routing_number ${request.routing_number} fails the ABA checksum`,
    );
  }
  const clientId = token?.clientId ?? '';
  const fields = body as Record<string, unknown>;
  if (found.reference) return replayed(context, found.reference, fields, request.reference);
  try {
    sourceAccount(context, found.account, request.account_id, clientId);
  } catch (refusal) {
    if (!found.referenceUnread) throw refusal;
    // A used reference is answered as used, whatever the account: look before refusing.
    return andThen(
      context.store.records.read({ token: token?.token, reference: request.reference }),
      (again) => {
        if (again.reference) return replayed(context, again.reference, fields, request.reference);
        throw refusal;
      },
    );
  }
  const now = context.clock.now();
  const made: UsdTransfer = {
    account_number: request.account_number,
    account_type: ACCOUNT_TYPES.find((type) => type === request.account_type) ?? request.account_type,
    amount: request.amount,
    description: request.description ?? '',
    reference: request.reference,
    recipient_email: request.recipient_email,
    recipient_name: request.recipient_name,
    routing_number: request.routing_number,
    transaction_date: context.behaviour.stamp(now),
    transaction_id: context.behaviour.newId('txn'),
    transaction_status: 'processing',
    transfer_type: request.transfer_type === 'ACH' ? 'ACH' : 'WIRE',
  };
  const record = shaped(context, 'usdTransfer', made, fields);
  const accountId = request.account_id;
  const print = isEcho(fields, record, accountId) ? ECHOED : fingerprint(fields);
  const lifecycle = lifecycleFor(
    context.store.scenario(),
    {
      kind: 'usd_transfer',
      amount: record.amount,
      account_number: record.account_number,
      transfer_type: record.transfer_type,
      reference: record.reference,
    },
    now,
  );
  // One literal each way: a lifecycle added later would hang off the stored transfer in a second object.
  const stored: StoredTransfer = lifecycle
    ? { record, clientId, accountId, fingerprint: print, lifecycle }
    : { record, clientId, accountId, fingerprint: print };
  // Another request with this reference may have been stored since the read: the store says which won.
  return andThen(context.store.records.insertTransfer(stored), (inserted) =>
    inserted.created
      ? ok(said(context, 'usdTransfer', 'Transfer created'), record)
      : replayed(context, inserted.stored, fields, request.reference),
  );
};

/** POST /payments/wallet. */
export const walletPayout: OperationHandler = (context, { body, token, found }) => {
  const request = body as Required<Omit<WalletPayoutRequest, 'description'>> & WalletPayoutRequest;
  // Without account_id (where a recorded sandbox took that), funds come from the merchant's account.
  const accountId = request.account_id ?? context.store.seeded.merchantAccountId;
  sourceAccount(context, found.account, accountId, token?.clientId ?? '');
  const now = context.clock.now();
  const record = shaped<WalletPayout>(
    context,
    'walletPayout',
    {
      amount: request.amount,
      description: request.description ?? '',
      wallet_id: request.wallet_id,
      // '' where a recorded sandbox took a payout without it, as the transfer's description.
      recipient_name: request.recipient_name ?? '',
      transaction_date: context.behaviour.stamp(now),
      transaction_id: context.behaviour.newId('wpo'),
      transaction_status: 'processing',
    },
    body as Record<string, unknown>,
  );
  const clientId = token?.clientId ?? '';
  const lifecycle = lifecycleFor(
    context.store.scenario(),
    { kind: 'wallet_payout', amount: record.amount },
    now,
  );
  const stored: StoredPayout = lifecycle
    ? { record, clientId, accountId, lifecycle }
    : { record, clientId, accountId };
  return after(
    context.store.records.addPayout(stored),
    ok(said(context, 'walletPayout', 'Wallet payout created'), record),
  );
};
