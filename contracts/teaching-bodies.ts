import { pathOf, type Teacher } from './teaching-context.ts';

export { pathOf };

/** The payment types whose bounds and records the session explores: each transfer type, and wallet. */
export const PAYMENT_TYPES = ['ACH', 'WIRE', 'wallet'] as const;
export type PaymentType = (typeof PAYMENT_TYPES)[number];

/** An amount every sandbox of the description should take: the happy path's. */
export const CENTRAL_AMOUNT = 125.5;

/** A transfer the session's account pays: `reference` fresh unless given. */
export function transferBody(
  teacher: Teacher,
  type: 'ACH' | 'WIRE',
  amount: number,
  overrides: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    account_id: teacher.found.accountId,
    account_number: '000123456789',
    account_type: 'CHECKING',
    amount,
    routing_number: '021000021',
    transfer_type: type,
    reference: teacher.reference(),
    recipient_email: 'ada@example.com',
    recipient_name: 'Ada Lovelace',
    description: 'pacu teaching session',
    ...overrides,
  };
}

/** A wallet payout from the session's account (the e-mail in mixed case: is it echoed as sent?). */
export function payoutBody(teacher: Teacher, amount: number): Record<string, unknown> {
  return {
    account_id: teacher.found.accountId,
    amount,
    wallet_id: 'Grace.Hopper@Example.com',
    recipient_name: 'Grace Hopper',
    description: 'pacu teaching session',
  };
}

/** The path and body of a payment of `type` for `amount`. */
export function paymentOf(
  teacher: Teacher,
  type: PaymentType,
  amount: number,
): { path: string; body: Record<string, unknown> } {
  return type === 'wallet'
    ? { path: pathOf('walletPayout'), body: payoutBody(teacher, amount) }
    : { path: pathOf('usdTransfer'), body: transferBody(teacher, type, amount) };
}
