import type { Origin } from '../glossary.ts';
import type { EchoRequirement } from './echo-facts.ts';
import { type Emitter, fieldName, type Place } from './emitter.ts';
import { compareFacts } from './facts-diff.ts';
import { isIdempotencyKey, renamedTo } from './payment-rules.ts';
import { collectFields, effectiveFacts, type Field } from './schema-facts.ts';

/** The one new sibling of a removed field with the same types: told as a likely rename, judged as removal and addition. */
function lookalike(
  removed: Field,
  before: ReadonlyMap<string, Field>,
  after: ReadonlyMap<string, Field>,
): Field | undefined {
  const types = JSON.stringify(effectiveFacts(removed).types);
  const candidates = [...after.values()].filter(
    (field) =>
      field.parent === removed.parent &&
      !before.has(field.field) &&
      JSON.stringify(effectiveFacts(field).types) === types,
  );
  return candidates.length === 1 ? candidates[0] : undefined;
}

/**
 * Who makes `name` a required property of `parent`: the description, or only pacu's decisions (so
 * the documented view, which leaves decisions out, has it optional), or nobody.
 */
function requiredBy(parent: Field, name: string): Origin | undefined {
  if (parent.facts.description.required.has(name)) return 'description';
  return parent.facts.decision.required.has(name) ? 'decision' : undefined;
}

const RECORD = '$.data';

/** The record's fields its description requires by echoing the request: required as the description's own. */
function requireEchoes(fields: Map<string, Field>, echo: EchoRequirement | undefined): Map<string, Field> {
  const record = fields.get(RECORD);
  for (const name of echo?.keys() ?? [])
    if (record?.children.has(name)) record.facts.description.required.add(name);
  return fields;
}

/** The description's words that make a removed record field required, when its echo does. */
function echoCites(place: Place, field: Field): readonly string[] | undefined {
  return field.parent === RECORD && field.name !== undefined
    ? place.echo?.before?.get(field.name)
    : undefined;
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
  const before = requireEchoes(collectFields(oldSchema, path, place.base), place.echo?.before);
  const after = requireEchoes(collectFields(newSchema, path, place.base), place.echo?.after);
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
    const wasRequired = requiredBy(oldParent, old.name);
    const look = lookalike(old, before, after);
    const details = { path: old.path, field: key, before: old.name, ...(look ? { after: look.name } : {}) };
    const name = fieldName(key, place.root);
    const hint = look ? ` (apparently renamed ${fieldName(look.field, place.root)})` : '';
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
          ? `${subject} no longer takes ${name} and allows no other properties: ${who} that send it are refused${hint}`
          : `${subject} no longer takes ${name}: ${who} that send it have it ignored${hint}`,
      });
    } else {
      // A described field that only a decision makes required: optional as the description reads,
      // so its removal is risky there, and breaking only for the strict profile's clients.
      const split = wasRequired === 'decision' && old.existence === 'description';
      if (!wasRequired || split)
        emit('response-optional-property-removed', old.existence, place, {
          ...details,
          message: `${subject} no longer carries the optional ${name}: ${who} that read it get nothing${hint}`,
        });
      const cites = wasRequired === 'description' ? echoCites(place, old) : undefined;
      if (wasRequired)
        emit('response-required-property-removed', split ? 'decision' : old.existence, place, {
          ...details,
          ...(cites ? { cites } : {}),
          message: split
            ? `${subject} no longer carries ${name}, which pacu's decision made always present: ${who} that read it break${hint}`
            : cites
              ? `${subject} no longer carries ${name}, a required request field the description says the response echoes: ${who} that read it break${hint}`
              : `${subject} no longer carries ${name}: ${who} that read it break${hint}`,
        });
    }
  }

  for (const [key, now] of after) {
    if (before.has(key) || now.parent === undefined || now.name === undefined) continue;
    if (!before.has(now.parent) || (request && successors.has(now.name))) continue;
    const newParent = after.get(now.parent);
    const required = newParent ? requiredBy(newParent, now.name) : undefined;
    const name = fieldName(key, place.root);
    const details = { path: now.path, field: key, after: now.name };
    if (request) {
      // The same split: a new described field only a decision requires breaks strict clients only.
      const split = required === 'decision' && now.existence === 'description';
      if (!required || split)
        emit('new-optional-request-property', now.existence, place, {
          ...details,
          message: `${subject} takes a new optional ${name}`,
        });
      if (required)
        emit('new-required-request-property', split ? 'decision' : now.existence, place, {
          ...details,
          message: `${subject} now requires ${name}${split ? " (pacu's decision)" : ''}: ${who} that do not send it are refused`,
        });
    } else
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
