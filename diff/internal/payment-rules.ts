import type { Field } from './schema-facts.ts';

// What makes pacu's diff payment-aware: a few fields whose change moves money differently, found by
// name (and, for the idempotency key, by what its description says) so a renamed schema still counts.

/** The merchant's idempotency key: `reference`, or a field its description calls the idempotency key. */
export function isIdempotencyKey(field: Field): boolean {
  return field.name === 'reference' || /idempoten/i.test(field.description ?? '');
}

/** A payment's status, whose values clients switch on: `transaction_status`. */
export const isTransactionStatus = (field: Field): boolean => field.name === 'transaction_status';

/** An amount of money: a number named `amount`, `*_amount`, `balance` or `*_balance` (not `hold_balance`, a boolean). */
export function isAmount(field: Field): boolean {
  const types = [...(field.facts.description.types ?? []), ...(field.facts.decision.types ?? [])];
  return (
    /(^|_)(amount|balance)$/.test(field.name ?? '') && (types.includes('number') || types.includes('integer'))
  );
}

/**
 * The field that took a removed idempotency key's place: a string property the new object requires
 * that the old one did not have. Undefined when there is none, or more than one to choose from.
 */
export function renamedTo(
  removed: Field,
  oldFields: ReadonlyMap<string, Field>,
  newFields: ReadonlyMap<string, Field>,
  requiredInNew: ReadonlySet<string>,
): string | undefined {
  const parent = removed.parent === undefined ? undefined : newFields.get(removed.parent);
  if (!parent || removed.parent === undefined) return undefined;
  const oldParent = oldFields.get(removed.parent);
  const candidates = [...parent.children].filter((name) => {
    if (oldParent?.children.has(name) || !requiredInNew.has(name)) return false;
    const child = [...newFields.values()].find(
      (field) => field.parent === parent.field && field.name === name,
    );
    const types = child
      ? [...(child.facts.description.types ?? []), ...(child.facts.decision.types ?? [])]
      : [];
    return types.length === 0 || types.includes('string');
  });
  return candidates.length === 1 ? candidates[0] : undefined;
}
