import { type OperationId, type OperationSecurity, routeRequest, type Spec } from '../../spec/index.ts';
import { type Behaviour, NO_AMOUNTS } from './behaviour.ts';
import { MockHttpError, type MockRequest } from './http-types.ts';

/** The payment type an amount is bounded by: `usdTransfer:WIRE`, `walletPayout:wallet`; else undefined. */
export function paymentKey(operation: OperationId, body: unknown): string | undefined {
  const fields = body && typeof body === 'object' ? (body as Record<string, unknown>) : {};
  if (operation === 'walletPayout') return 'walletPayout:wallet';
  return operation === 'usdTransfer' && typeof fields.transfer_type === 'string'
    ? `usdTransfer:${fields.transfer_type}`
    : undefined;
}

const amountOf = (body: unknown): number | undefined => {
  const amount = (body as { amount?: unknown } | undefined)?.amount;
  return typeof amount === 'number' ? amount : undefined;
};

/**
 * Whether a message of pacu's request check is let be: a field pacu requires that a sandbox went
 * without, or an amount beyond pacu's own bounds that the sandbox took for this payment type.
 */
export function letBe(behaviour: Behaviour, operation: OperationId, body: unknown, message: string): boolean {
  const optional = behaviour.optionalFields[operation] ?? [];
  if (optional.some((name) => message.includes(`required property '${name}'`))) return true;
  const key = paymentKey(operation, body);
  const range = key === undefined ? undefined : behaviour.amounts[key];
  const amount = amountOf(body);
  if (!range || amount === undefined || !/\bamount\b/.test(message) || /decimal/.test(message)) return false;
  return (
    amount >= (range.takenFrom ?? Number.NEGATIVE_INFINITY) &&
    amount <= (range.takenTo ?? Number.POSITIVE_INFINITY)
  );
}

const refuse = (message: string): never => {
  throw new MockHttpError(400, `Invalid request: ${message}`, undefined, 'out-of-bounds');
};

function pagingLimits(behaviour: Behaviour, request: MockRequest): void {
  const { paging } = behaviour;
  const limits = paging.limits;
  if (!limits) return;
  const number = (name: string): number | undefined => {
    const text = request.query.get(name);
    return text !== null && /^-?[0-9]{1,9}$/.test(text) ? Number(text) : undefined;
  };
  const position = number(paging.position);
  const size = number(paging.size);
  if (position !== undefined && limits.minPosition !== undefined && position < limits.minPosition)
    refuse(`${paging.position} ${position} is below ${limits.minPosition}, the first the sandbox answers`);
  if (size !== undefined && limits.minSize !== undefined && size < limits.minSize)
    refuse(`${paging.size} ${size} is below ${limits.minSize}, the least the sandbox answers`);
  if (size !== undefined && limits.maxSize !== undefined && size > limits.maxSize)
    refuse(`${paging.size} ${size} is above ${limits.maxSize}, the most the sandbox answers`);
}

/**
 * What a recorded sandbox refused that pacu's checks let through: an amount beyond the bounds of its
 * payment type, a page outside the paging limits. Thrown as an `out-of-bounds` refusal.
 */
export function enforceLearned(
  behaviour: Behaviour,
  operation: OperationId,
  request: MockRequest,
  body: unknown,
): void {
  if (behaviour.amounts === NO_AMOUNTS && !behaviour.paging.limits) return;
  if (operation === 'listUsers') {
    pagingLimits(behaviour, request);
    return;
  }
  const key = paymentKey(operation, body);
  const range = key === undefined ? undefined : behaviour.amounts[key];
  const amount = amountOf(body);
  if (!range || amount === undefined) return;
  const type = key?.split(':')[1];
  if (range.refusedAtOrBelow !== undefined && amount <= range.refusedAtOrBelow)
    refuse(
      `amount ${amount} is at or below ${range.refusedAtOrBelow.toFixed(2)}, which the sandbox refuses for ${type}`,
    );
  if (range.refusedFrom !== undefined && amount >= range.refusedFrom)
    refuse(
      `amount ${amount} is at or above ${range.refusedFrom.toFixed(2)}, which the sandbox refuses for ${type}`,
    );
}

/** The bearer security an operation is held to: the scopes a sandbox showed it needs, else the spec's. */
export function neededSecurity(
  behaviour: Behaviour,
  operation: OperationId,
  security: Extract<OperationSecurity, { kind: 'bearer' }>,
): Extract<OperationSecurity, { kind: 'bearer' }> {
  const learned = behaviour.scopes[operation];
  if (learned) return { ...security, scopes: [...learned] as typeof security.scopes };
  return behaviour.scopeOptional.has(operation) ? { ...security, scopes: [] } : security;
}

/**
 * The path as the router reads it: without the trailing slash and with the description's case where
 * a sandbox served such paths as the path itself. Literal segments only change case: ids keep theirs.
 */
export function servedPath(behaviour: Behaviour, spec: Spec, path: string): string {
  const { trailingSlash, anyCase } = behaviour.paths;
  if (!trailingSlash && !anyCase) return path;
  const base = behaviour.basePath;
  if (!path.startsWith(`${base}/`)) return path;
  let relative = path.slice(base.length);
  if (trailingSlash && relative.length > 1 && relative.endsWith('/')) relative = relative.slice(0, -1);
  if (anyCase && routeRequest(spec, 'GET', relative).kind === 'not-found') {
    const segments = relative.split('/');
    for (const operation of spec.operations) {
      const template = operation.path.split('/');
      if (template.length !== segments.length) continue;
      const fits = template.every(
        (part, index) => part.startsWith('{') || part.toLowerCase() === segments[index]?.toLowerCase(),
      );
      if (fits) {
        relative = template.map((part, index) => (part.startsWith('{') ? segments[index] : part)).join('/');
        break;
      }
    }
  }
  return `${base}${relative}`;
}
