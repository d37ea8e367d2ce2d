import type { Origin } from '../glossary.ts';
import { type Emitter, fieldName, list, type Place } from './emitter.ts';
import { isAmount, isIdempotencyKey, isTransactionStatus, renamedTo } from './payment-rules.ts';
import {
  BOUNDS,
  collectFields,
  effectiveFacts,
  type Facts,
  type Field,
  LOWER_BOUNDS,
} from './schema-facts.ts';

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/** a ⊆ b, where undefined is "any type". */
function within(a: readonly string[] | undefined, b: readonly string[] | undefined): boolean {
  if (b === undefined) return true;
  if (a === undefined) return false;
  // An integer is a number: widening integer to number keeps every old value valid.
  return a.every((type) => b.includes(type) || (type === 'integer' && b.includes('number')));
}

const without = (a: readonly unknown[], b: readonly unknown[]): unknown[] =>
  a.filter((value) => !b.some((other) => same(other, value)));

/** Whose change it is: the description's when its own facts moved on that aspect, else pacu's decision. */
function originOf(old: Field, now: Field, aspect: (facts: Facts) => unknown): Origin {
  return same(aspect(old.facts.description), aspect(now.facts.description)) ? 'decision' : 'description';
}

/**
 * Compare two versions of one body schema (dereferenced). The request side and the response side
 * are judged the other way round: what narrows a request breaks its senders, what widens a
 * response breaks its readers.
 */
export function diffSchemas(
  oldSchema: unknown,
  newSchema: unknown,
  path: string,
  place: Place,
  out: Emitter,
): void {
  const before = collectFields(oldSchema, path, place.base);
  const after = collectFields(newSchema, path, place.base);
  const request = place.side === 'request';
  const { subject, who } = place;
  const emit = out.emit.bind(out);

  // A renamed idempotency key is told once, as a rename, not again as a new required field.
  const successors = new Set<string>();
  for (const [key, old] of before) {
    const now = after.get(key);
    if (now) {
      compareFacts(old, now, place, out);
      continue;
    }
    if (old.parent === undefined || old.name === undefined) continue;
    const oldParent = before.get(old.parent);
    const newParent = after.get(old.parent);
    if (!oldParent || !newParent) continue;
    const wasRequired = effectiveFacts(oldParent).required.has(old.name);
    const details = { path: old.path, field: key, before: old.name };
    const name = fieldName(key, place.root);
    if (request && isIdempotencyKey(old)) {
      const successor = renamedTo(old, before, after, effectiveFacts(newParent).required);
      if (successor) successors.add(successor);
      if (successor)
        emit('idempotency-key-renamed', old.existence, place, {
          ...details,
          after: successor,
          message: `${subject} replaces the idempotency key ${name} with \`${successor}\`: retries of clients that still send ${name} are no longer deduplicated, and they are refused for lacking \`${successor}\` (money movement)`,
        });
      else
        emit('idempotency-key-removed', old.existence, place, {
          ...details,
          message: `${subject} no longer takes the idempotency key ${name}: a retried request can move the money twice`,
        });
    } else if (request) {
      const closed = !effectiveFacts(newParent).open;
      emit(closed ? 'request-property-removed-closed' : 'request-property-removed', old.existence, place, {
        ...details,
        message: closed
          ? `${subject} no longer takes ${name} and allows no other properties: ${who} that send it are refused`
          : `${subject} no longer takes ${name}: ${who} that send it have it ignored`,
      });
    } else {
      emit(
        wasRequired ? 'response-required-property-removed' : 'response-optional-property-removed',
        old.existence,
        place,
        {
          ...details,
          message: wasRequired
            ? `${subject} no longer carries ${name}: ${who} that read it break`
            : `${subject} no longer carries the optional ${name}: ${who} that read it get nothing`,
        },
      );
    }
  }

  for (const [key, now] of after) {
    if (before.has(key) || now.parent === undefined || now.name === undefined) continue;
    if (!before.has(now.parent) || (request && successors.has(now.name))) continue;
    const newParent = after.get(now.parent);
    const required = newParent ? effectiveFacts(newParent).required.has(now.name) : false;
    const name = fieldName(key, place.root);
    const details = { path: now.path, field: key, after: now.name };
    if (request)
      emit(
        required ? 'new-required-request-property' : 'new-optional-request-property',
        now.existence,
        place,
        {
          ...details,
          message: required
            ? `${subject} now requires ${name}: ${who} that do not send it are refused`
            : `${subject} takes a new optional ${name}`,
        },
      );
    else
      emit(
        required ? 'response-required-property-added' : 'response-optional-property-added',
        now.existence,
        place,
        {
          ...details,
          message: `${subject} carries a new ${required ? '' : 'optional '}${name}`,
        },
      );
  }

  for (const [key, old] of before) {
    const now = after.get(key);
    if (now) compareRequired(old, now, before, after, place, out);
  }
}

function compareRequired(
  old: Field,
  now: Field,
  before: ReadonlyMap<string, Field>,
  after: ReadonlyMap<string, Field>,
  place: Place,
  out: Emitter,
): void {
  const was = effectiveFacts(old).required;
  const is = effectiveFacts(now).required;
  const request = place.side === 'request';
  for (const name of old.children) {
    if (!now.children.has(name) || was.has(name) === is.has(name)) continue;
    const child = [...before.values()].find((field) => field.parent === old.field && field.name === name);
    const newChild = [...after.values()].find((field) => field.parent === now.field && field.name === name);
    if (!child || !newChild) continue;
    const origin: Origin =
      old.facts.description.required.has(name) !== now.facts.description.required.has(name)
        ? 'description'
        : 'decision';
    const label = fieldName(child.field, place.root);
    const details = { path: newChild.path, field: child.field, before: was.has(name), after: is.has(name) };
    const { subject, who } = place;
    if (is.has(name)) {
      if (request)
        out.emit('request-property-became-required', origin, place, {
          ...details,
          message: `${subject} now requires ${label}: ${who} that leave it out are refused`,
        });
      else
        out.emit('response-property-became-required', origin, place, {
          ...details,
          message: `${subject} now always carries ${label}`,
        });
    } else if (request && isIdempotencyKey(child)) {
      out.emit('idempotency-key-optional', origin, place, {
        ...details,
        message: `${subject} no longer requires the idempotency key ${label}: requests without it are not deduplicated, so a retry can move the money twice`,
      });
    } else if (request)
      out.emit('request-property-became-optional', origin, place, {
        ...details,
        message: `${subject} no longer requires ${label}`,
      });
    else
      out.emit('response-property-became-optional', origin, place, {
        ...details,
        message: `${subject} may leave out ${label}: ${who} that read it break when it is missing`,
      });
  }
}

function compareFacts(old: Field, now: Field, place: Place, out: Emitter): void {
  const a = effectiveFacts(old);
  const b = effectiveFacts(now);
  const request = place.side === 'request';
  const { subject, who } = place;
  const name = fieldName(old.field, place.root);
  const at = { path: now.path, field: old.field };
  const emit = (
    check: Parameters<Emitter['emit']>[0],
    aspect: (facts: Facts) => unknown,
    message: string,
    before: unknown,
    after: unknown,
  ): void => out.emit(check, originOf(old, now, aspect), place, { ...at, message, before, after });

  if (!same(a.types, b.types)) {
    const types = (facts: Facts): unknown => facts.types;
    const shown = `${a.types?.join('|') ?? 'any'} to ${b.types?.join('|') ?? 'any'}`;
    if (isAmount(old))
      emit(
        'amount-type-changed',
        types,
        `the type of the amount ${name} in ${subject} changes from ${shown}: ${who} that compute with it break`,
        a.types,
        b.types,
      );
    else if (request && within(a.types, b.types))
      emit(
        'request-property-type-generalized',
        types,
        `${subject} takes ${name} as ${shown}`,
        a.types,
        b.types,
      );
    else if (!request && within(b.types, a.types))
      emit(
        'response-property-type-narrowed',
        types,
        `${subject} narrows ${name} from ${shown}`,
        a.types,
        b.types,
      );
    else
      emit(
        `${request ? 'request' : 'response'}-property-type-changed`,
        types,
        `${subject} changes the type of ${name} from ${shown}: ${who} that ${request ? 'send' : 'read'} it break`,
        a.types,
        b.types,
      );
  }

  if (a.format !== b.format) {
    const format = (facts: Facts): unknown => facts.format;
    const shown = `${a.format ?? 'none'} to ${b.format ?? 'none'}`;
    if (isAmount(old))
      emit(
        'amount-type-changed',
        format,
        `the format of the amount ${name} in ${subject} changes from ${shown}: ${who} that compute with it break`,
        a.format,
        b.format,
      );
    else if (request && b.format === undefined)
      emit(
        'request-property-format-removed',
        format,
        `${subject} no longer asks ${name} to be ${a.format}`,
        a.format,
        b.format,
      );
    else if (!request && a.format === undefined)
      emit(
        'response-property-format-added',
        format,
        `${subject} now says ${name} is ${b.format}`,
        a.format,
        b.format,
      );
    else
      emit(
        `${request ? 'request' : 'response'}-property-format-changed`,
        format,
        `${subject} changes the format of ${name} from ${shown}: ${who} that ${request ? 'send' : 'read'} it may break`,
        a.format,
        b.format,
      );
  }

  if (!same(a.enum, b.enum)) {
    const values = (facts: Facts): unknown => facts.enum;
    if (a.enum === undefined)
      emit(
        request ? 'request-property-became-enum' : 'response-property-became-enum',
        values,
        request
          ? `${subject} now takes only ${list(b.enum ?? [])} for ${name}: ${who} that send other values are refused`
          : `${subject} now says ${name} is one of ${list(b.enum ?? [])}`,
        a.enum,
        b.enum,
      );
    else if (b.enum === undefined)
      emit(
        request ? 'request-property-enum-dropped' : 'response-property-enum-dropped',
        values,
        request
          ? `${subject} takes any value for ${name}`
          : `${subject} no longer limits ${name} to ${list(a.enum)}: ${who} with an exhaustive switch may meet values they do not handle`,
        a.enum,
        b.enum,
      );
    else {
      const removed = without(a.enum, b.enum);
      const added = without(b.enum, a.enum);
      const status = isTransactionStatus(old);
      if (removed.length > 0) {
        if (status)
          emit(
            'transaction-status-removed',
            values,
            `${subject} no longer has the transaction status ${list(removed)}: ${who} waiting for it never see the payment settle that way`,
            removed,
            b.enum,
          );
        else if (request)
          emit(
            'request-property-enum-value-removed',
            values,
            `${subject} no longer takes ${list(removed)} for ${name}: ${who} that send it are refused`,
            removed,
            b.enum,
          );
        else
          emit(
            'response-property-enum-value-removed',
            values,
            `${subject} no longer sends ${list(removed)} for ${name}`,
            removed,
            b.enum,
          );
      }
      if (added.length > 0) {
        if (status)
          emit(
            'transaction-status-added',
            values,
            `${subject} gains the transaction status ${list(added)}: ${who} with an exhaustive switch on ${name} meet a status they do not handle`,
            a.enum,
            added,
          );
        else if (request)
          emit(
            'request-property-enum-value-added',
            values,
            `${subject} also takes ${list(added)} for ${name}`,
            a.enum,
            added,
          );
        else
          emit(
            'response-property-enum-value-added',
            values,
            `${subject} may send ${list(added)} for ${name}: ${who} with an exhaustive switch meet a value they do not handle`,
            a.enum,
            added,
          );
      }
    }
  }

  if (!same(a.patterns, b.patterns)) {
    const patterns = (facts: Facts): unknown => [...facts.patterns].sort();
    const shown = b.patterns.map((p) => `/${p}/`).join(' and ');
    if (!request)
      emit(
        'response-property-pattern-changed',
        patterns,
        `${subject} changes the pattern of ${name} to ${shown || 'none'}`,
        a.patterns,
        b.patterns,
      );
    else if (b.patterns.length === 0)
      emit(
        'request-property-pattern-removed',
        patterns,
        `${subject} no longer checks ${name} against a pattern`,
        a.patterns,
        b.patterns,
      );
    else
      emit(
        a.patterns.length === 0 ? 'request-property-pattern-added' : 'request-property-pattern-changed',
        patterns,
        `${subject} now checks ${name} against ${shown}: ${who} whose values do not match are refused`,
        a.patterns,
        b.patterns,
      );
  }

  for (const bound of BOUNDS) {
    const from = a.bounds[bound];
    const to = b.bounds[bound];
    if (from === to) continue;
    const aspect = (facts: Facts): unknown => facts.bounds[bound];
    const lower = LOWER_BOUNDS.has(bound);
    const tighter = from === undefined || (to !== undefined && (lower ? to > from : to < from));
    const shown = `${bound} ${from ?? 'none'} to ${to ?? 'none'}`;
    if (request) {
      if (from === undefined)
        emit(
          'request-property-bound-set',
          aspect,
          `${subject} sets ${bound} ${to} on ${name}: ${who} that send values past it are refused`,
          from,
          to,
        );
      else if (tighter)
        emit(
          'request-property-bound-tightened',
          aspect,
          `${subject} tightens ${name} (${shown}): ${who} that send values past it are refused`,
          from,
          to,
        );
      else emit('request-property-bound-relaxed', aspect, `${subject} relaxes ${name} (${shown})`, from, to);
    } else if (tighter)
      emit('response-property-bound-tightened', aspect, `${subject} tightens ${name} (${shown})`, from, to);
    else
      emit(
        'response-property-bound-relaxed',
        aspect,
        `${subject} relaxes ${name} (${shown}): ${who} that rely on the old limit may break`,
        from,
        to,
      );
  }

  if (a.multipleOf !== b.multipleOf)
    emit(
      'property-multiple-of-changed',
      (facts) => facts.multipleOf,
      `${subject} changes multipleOf of ${name} from ${a.multipleOf ?? 'none'} to ${b.multipleOf ?? 'none'}`,
      a.multipleOf,
      b.multipleOf,
    );

  if (a.open !== b.open) {
    const open = (facts: Facts): unknown => facts.open;
    if (request)
      emit(
        b.open ? 'request-property-opened' : 'request-property-closed',
        open,
        b.open
          ? `${subject} allows other properties in ${name}`
          : `${subject} allows no other properties in ${name}: ${who} that send extra fields are refused`,
        a.open,
        b.open,
      );
    else
      emit(
        b.open ? 'response-property-opened' : 'response-property-closed',
        open,
        b.open
          ? `${subject} may carry other properties in ${name}: ${who} that validate strictly break`
          : `${subject} allows no other properties in ${name}`,
        a.open,
        b.open,
      );
  }
}
