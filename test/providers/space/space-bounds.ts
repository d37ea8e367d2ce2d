import type { OperationId } from '../../../spec/index.ts';
import type { Knobs } from './knobs.ts';

/** The payment type a request's amount is bounded by: a transfer's transfer_type, or `wallet`. */
export function paymentTypeOf(operation: OperationId, body: Record<string, unknown>): string | undefined {
  if (operation === 'walletPayout') return 'wallet';
  return operation === 'usdTransfer' && typeof body.transfer_type === 'string'
    ? body.transfer_type
    : undefined;
}

/** Bounds a sandbox keeps per payment type and states nowhere (one seen kept these three). */
export const TYPE_BOUNDS: Readonly<Record<string, { readonly min?: number; readonly max?: number }>> = {
  WIRE: { min: 1 },
  ACH: { max: 100_000 },
  wallet: { max: 10_000 },
};

/** Why this provider refuses the amount for the request's payment type, or undefined. */
export function typeBoundProblem(
  operation: OperationId,
  body: Record<string, unknown>,
  knobs: Knobs,
): string | undefined {
  if (knobs.amountBoundsByType === 'none' || typeof body.amount !== 'number') return undefined;
  const type = paymentTypeOf(operation, body);
  const bounds = type === undefined ? undefined : TYPE_BOUNDS[type];
  if (bounds?.min !== undefined && body.amount < bounds.min)
    return `amount must be at least ${bounds.min.toFixed(2)} for ${type}`;
  if (bounds?.max !== undefined && body.amount > bounds.max)
    return `amount must be at most ${bounds.max.toFixed(2)} for ${type}`;
  return undefined;
}
