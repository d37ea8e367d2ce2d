import type { Knobs } from './knobs.ts';
import type { Behaviour } from './mutants.ts';
import { Refusal } from './refusal.ts';

interface Payment {
  readonly record: Record<string, unknown>;
  readonly createdAt: number;
}

/** Sorted keys, so the same fields in another order are the same request. */
const canonical = (body: Record<string, unknown>): string =>
  JSON.stringify(Object.fromEntries(Object.entries(body).sort(([a], [b]) => a.localeCompare(b))));

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export interface PaymentDeps {
  readonly knobs: Knobs;
  readonly mutated: (name: Behaviour) => boolean;
  readonly newId: (kind: string) => string;
  readonly stamp: (ms: number) => string;
  /** Throws unless `id` names an account that holds a balance (the description's funds source). */
  readonly fundsSource: (operation: 'usdTransfer' | 'walletPayout', id: unknown) => void;
}

/** USD transfers and wallet payouts: records, idempotency by reference, status over real time. */
export function createSpacePayments(deps: PaymentDeps) {
  const { knobs, mutated, newId, stamp } = deps;
  const byReference = new Map<string, { body: string; payment: Payment }>();

  /** The record now: `processing` until this provider's transitions (if any) have moved it. */
  function current(payment: Payment): Record<string, unknown> {
    const moved = knobs.transitions === 'after-one-second' && Date.now() - payment.createdAt > 1000;
    return moved ? { ...payment.record, transaction_status: 'successful' } : payment.record;
  }

  /** A string field the request may have left out: an empty string, or no field at all. */
  function optional(body: Record<string, unknown>, field: string): Record<string, unknown> {
    if (typeof body[field] === 'string') return { [field]: body[field] };
    return knobs.absentFields === 'omitted' ? {} : { [field]: '' };
  }

  function create(kind: 'txn' | 'wpo', fields: Record<string, unknown>, broken: boolean): Payment {
    // Broken: an amount of 10,000 or more is written as a string (a decimal type serialised as text).
    const large =
      mutated('large-amounts-as-strings') && typeof fields.amount === 'number' && fields.amount >= 10_000;
    const record = {
      ...fields,
      ...(large ? { amount: String(fields.amount) } : {}),
      transaction_date: stamp(Date.now()),
      transaction_id: newId(kind),
      transaction_status: broken ? 'successful' : 'processing',
    };
    return { record, createdAt: Date.now() };
  }

  async function usdTransfer(body: Record<string, unknown>): Promise<Record<string, unknown>> {
    const reference = String(body.reference);
    const text = canonical(body);
    const existing = byReference.get(reference);
    if (existing && existing.body === text && !mutated('replay-new-transaction'))
      return knobs.replayAnswer === 'current-status' ? current(existing.payment) : existing.payment.record;
    if (existing && existing.body !== text && !mutated('reused-reference-new-transaction')) {
      if (knobs.reusedReference === 'original-record') return existing.payment.record;
      throw new Refusal(knobs.reusedReference, `reference ${reference} was already used with another body`);
    }
    deps.fundsSource('usdTransfer', body.account_id);
    // Broken: every amount is refused, as if a bound no transfer can meet stood in the way.
    if (mutated('every-transfer-amount-refused'))
      throw new Refusal(knobs.invalidBodyStatus, 'amount must be at least 1000000000.00');
    // Broken: concurrent twins both pass the lookup above before either is stored.
    if (mutated('concurrent-duplicates')) await pause(20);
    const name = String(body.recipient_name);
    const payment = create(
      'txn',
      {
        account_number: body.account_number,
        account_type: body.account_type,
        amount: body.amount,
        ...optional(body, 'description'),
        reference: body.reference,
        recipient_email: body.recipient_email,
        recipient_name: mutated('echo-altered') ? `${name.toUpperCase()}X` : name,
        routing_number: body.routing_number,
        transfer_type: body.transfer_type,
        ...(knobs.transferFees === 'per-type' ? { fee: body.transfer_type === 'WIRE' ? 15 : 0.25 } : {}),
      },
      mutated('transfer-created-successful'),
    );
    byReference.set(reference, { body: text, payment });
    return payment.record;
  }

  function walletPayout(body: Record<string, unknown>, merchantAccountId: string): Record<string, unknown> {
    deps.fundsSource('walletPayout', body.account_id ?? merchantAccountId);
    const wallet = typeof body.wallet_id === 'string' ? body.wallet_id : '';
    return create(
      'wpo',
      {
        amount: body.amount,
        ...optional(body, 'description'),
        wallet_id: knobs.walletIdCase === 'lower-case' ? wallet.toLowerCase() : wallet,
        ...optional(body, 'recipient_name'),
      },
      mutated('wallet-created-successful'),
    ).record;
  }

  return { usdTransfer, walletPayout };
}
