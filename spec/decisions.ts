import type { JSONSchema7 } from './json-schema.ts';
import type { Decision } from './model.ts';

const DECISION_KEY = 'x-pacu-decision';
const TOP_LEVEL_DECISIONS_KEY = 'x-pacu-decisions';

function escapePointerToken(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

/**
 * Every decision in the raw document (refs not followed, so each is listed once), in document
 * order: nodes marked `x-pacu-decision` and the entries of the top-level `x-pacu-decisions`.
 */
export function collectDecisions(document: unknown): Decision[] {
  const found: Decision[] = [];
  const visit = (node: unknown, pointer: string): void => {
    if (Array.isArray(node)) {
      for (const [index, item] of node.entries()) visit(item, `${pointer}/${index}`);
      return;
    }
    if (node === null || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node)) {
      const childPointer = `${pointer}/${escapePointerToken(key)}`;
      if (key === DECISION_KEY && typeof value === 'string') {
        found.push({ pointer: pointer || '/', reason: value.trim() });
      } else if (key === TOP_LEVEL_DECISIONS_KEY && pointer === '' && value && typeof value === 'object') {
        for (const [name, reason] of Object.entries(value)) {
          found.push({
            pointer: `${childPointer}/${escapePointerToken(name)}`,
            reason: String(reason).trim(),
          });
        }
      } else {
        visit(value, childPointer);
      }
    }
  };
  visit(document, '');
  return found;
}

function isDecision(node: unknown): boolean {
  return node !== null && typeof node === 'object' && DECISION_KEY in node;
}

/**
 * The documented view of a dereferenced schema: every `allOf` member marked as a decision is
 * dropped, so what is left is what the interface description states. A schema whose own root is a
 * decision is kept as is (its caller decides whether to use it at all).
 */
export function documentedSchema(schema: JSONSchema7): JSONSchema7 {
  // One view per schema, shared, its own nodes frozen: compileSchema() keeps what it compiled by
  // object, and a fresh copy per call made every rule run compile its schemas again.
  let view = documentedViews.get(schema);
  if (!view) {
    view = documentedCopy(schema);
    documentedViews.set(schema, view);
  }
  return view;
}

const documentedViews = new WeakMap<JSONSchema7, JSONSchema7>();

function documentedCopy(schema: JSONSchema7): JSONSchema7 {
  const strip = (node: JSONSchema7): JSONSchema7 => {
    const copy: JSONSchema7 = { ...node };
    if (copy.allOf) {
      const kept = copy.allOf.filter((member) => !isDecision(member)).map(strip);
      if (kept.length > 0) copy.allOf = Object.freeze(kept) as JSONSchema7[];
      else delete copy.allOf;
    }
    for (const key of ['anyOf', 'oneOf'] as const) {
      const members = copy[key];
      if (members) copy[key] = Object.freeze(members.map(strip)) as JSONSchema7[];
    }
    if (copy.properties) {
      copy.properties = Object.freeze(
        Object.fromEntries(Object.entries(copy.properties).map(([k, v]) => [k, strip(v)])),
      );
    }
    if (copy.items) copy.items = strip(copy.items);
    return Object.freeze(copy);
  };
  return strip(schema);
}

/** The view of a schema for a profile: as written under `strict`, decisions dropped under `documented`. */
export function schemaForProfile(schema: JSONSchema7, profile: 'documented' | 'strict'): JSONSchema7 {
  return profile === 'strict' ? schema : documentedSchema(schema);
}
