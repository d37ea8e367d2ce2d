import type { IncomingMessage } from 'node:http';
import { isAbaRoutingNumber, type OperationId } from '../../../spec/index.ts';
import type { Knobs } from './knobs.ts';
import type { Mutation } from './mutants.ts';
import { Refusal } from './refusal.ts';
import { typeBoundProblem } from './space-bounds.ts';
import { REQUEST_ROWS, type RequestRow } from './stated-fields.ts';

const BODY_LIMIT_BYTES = 64 * 1024;
const EMAIL = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;

/** The JSON object a request carries, as this provider reads it, or the refusal. */
export function readJsonBody(
  request: IncomingMessage,
  text: string,
  knobs: Knobs,
  mutation: Mutation | undefined,
): Record<string, unknown> {
  const type = (request.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  const json = type === 'application/json' || type.endsWith('+json');
  if (!json && knobs.contentTypes !== 'lenient')
    throw new Refusal(
      knobs.contentTypes === 'json-only-415' ? 415 : 400,
      `Content-Type ${type || '(none)'} is not JSON`,
    );
  if (knobs.sizeLimits === 'body-64-KiB' && Buffer.byteLength(text) > BODY_LIMIT_BYTES)
    throw new Refusal(413, 'the body is over 64 KiB');
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    const broken = mutation?.kind === 'behaviour' && mutation.name === 'malformed-json-500';
    throw new Refusal(broken ? 500 : 400, 'the body is not JSON');
  }
  if (!body || typeof body !== 'object' || Array.isArray(body))
    throw new Refusal(knobs.invalidBodyStatus, 'the body is not a JSON object');
  return body as Record<string, unknown>;
}

function required(row: RequestRow, knobs: Knobs): boolean {
  if (row.required !== 'knob') return row.required === 'yes';
  if (row.operation === 'createAccount') return knobs.accountRequired === 'both';
  if (knobs.walletRequired === 'all') return true;
  return knobs.walletRequired === 'amount-and-wallet' && ['amount', 'wallet_id'].includes(row.field);
}

/** Bounds the description shows nowhere, by the body's payment type where they are one type's. */
function hiddenBound(row: RequestRow, value: unknown, knobs: Knobs, body: Record<string, unknown>) {
  if (row.field === 'amount' && typeof value === 'number') {
    if (knobs.amountBounds === 'wire-from-1' && body.transfer_type === 'WIRE' && value < 1)
      return 'must be at least 1.00';
    if (knobs.amountBounds === 'up-to-25000' && value > 25_000) return 'must be at most 25000.00';
  }
  if (
    knobs.stringBounds === 'ach-names-up-to-22' &&
    row.operation === 'usdTransfer' &&
    row.field === 'recipient_name' &&
    body.transfer_type === 'ACH' &&
    typeof value === 'string' &&
    value.length > 22
  )
    return 'must be at most 22 characters for ACH';
  return undefined;
}

/** Why this provider finds `value` wrong for `row`, or undefined. */
function problem(
  row: RequestRow,
  value: unknown,
  knobs: Knobs,
  body: Record<string, unknown>,
): string | undefined {
  if (value === undefined || value === null) return required(row, knobs) ? 'is required' : undefined;
  if (
    row.type === 'number' ? typeof value !== 'number' || !Number.isFinite(value) : typeof value !== row.type
  )
    return `must be a ${row.type}`;
  if (row.values && !row.values.includes(value as string)) return `must be one of ${row.values.join(', ')}`;
  if (row.email && !EMAIL.test(value as string)) return 'must be an e-mail';
  if (typeof value === 'string' && knobs.sizeLimits === 'strings-255' && value.length > 255)
    return 'is longer than 255 characters';
  if (row.field === 'amount' && typeof value === 'number') {
    if (knobs.amountBounds === 'positive-up-to-a-million' && (value <= 0 || value > 1_000_000))
      return 'must be over 0 and at most 1000000';
    if (knobs.amountDecimals === 'cents' && Math.abs(Math.round(value * 100) - value * 100) > 1e-6)
      return 'has more than two decimals';
  }
  const bound = hiddenBound(row, value, knobs, body);
  if (bound) return bound;
  if (knobs.valueChecks === 'formats' && typeof value === 'string') {
    if (row.field === 'recipient_email' && !EMAIL.test(value)) return 'must be an e-mail';
    if (row.field === 'routing_number' && !isAbaRoutingNumber(value)) return 'is not an ABA routing number';
    if (row.field === 'account_number' && !/^[0-9]{4,17}$/.test(value)) return 'must be 4 to 17 digits';
  }
  return undefined;
}

/** Refuses a body that breaks the description's table for `operation` or this provider's choices. */
export function validateBody(
  operation: OperationId,
  body: Record<string, unknown>,
  knobs: Knobs,
  mutation: Mutation | undefined,
): void {
  const status =
    mutation?.kind === 'behaviour' && mutation.name === 'invalid-body-500' ? 500 : knobs.invalidBodyStatus;
  for (const row of REQUEST_ROWS) {
    if (row.operation !== operation) continue;
    if (mutation?.kind === 'request' && mutation.operation === operation && mutation.field === row.field)
      continue;
    // Broken: a rail of the account numbers taken as a transfer type.
    const rtp =
      mutation?.kind === 'behaviour' &&
      mutation.name === 'rtp-transfer-accepted' &&
      row.field === 'transfer_type' &&
      body[row.field] === 'RTP';
    const wrong = rtp ? undefined : problem(row, body[row.field], knobs, body);
    if (wrong) throw new Refusal(status, `${row.field} ${wrong}`);
  }
  const bound = typeBoundProblem(operation, body, knobs);
  if (bound) throw new Refusal(status, bound);
  if (
    operation === 'usdTransfer' &&
    mutation?.kind === 'behaviour' &&
    mutation.name === 'misspelt-recipient-required' &&
    typeof body.receipient_name !== 'string'
  )
    throw new Refusal(status, 'receipient_name is required');
}
