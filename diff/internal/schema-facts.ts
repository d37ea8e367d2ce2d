import type { Origin } from '../glossary.ts';

export const BOUNDS = [
  'minimum',
  'exclusiveMinimum',
  'maximum',
  'exclusiveMaximum',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'minProperties',
  'maxProperties',
] as const;
export type Bound = (typeof BOUNDS)[number];
/** Lower bounds: raising one narrows what is valid. */
export const LOWER_BOUNDS: ReadonlySet<Bound> = new Set([
  'minimum',
  'exclusiveMinimum',
  'minLength',
  'minItems',
  'minProperties',
]);

/** What one field of a body says, under one origin; `allOf` members are folded in. */
export interface Facts {
  types?: string[];
  format?: string;
  patterns: string[];
  enum?: unknown[];
  bounds: Partial<Record<Bound, number>>;
  multipleOf?: number;
  required: Set<string>;
  /** false: no other properties allowed. */
  open: boolean;
}

/** One field (`$`, `$.data`, `$.data.items[*]`) of a body schema, as the description and pacu's decisions say it. */
export interface Field {
  readonly field: string;
  /** The JSON path of its schema in the dereferenced document. */
  readonly path: string;
  /** `decision` when only decision nodes bring the field in. */
  existence: Origin;
  readonly facts: Record<Origin, Facts>;
  /** The direct properties' names, for "which child belongs to whom". */
  readonly children: Set<string>;
  /** The field it is a property of, and its name there; undefined for the root, items and variants. */
  readonly parent?: string;
  readonly name?: string;
  /** Its first `description`: what tells an idempotency key by its meaning rather than its name. */
  description?: string;
}

type Node = Record<string, unknown>;
const isNode = (value: unknown): value is Node =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** Two bounds on one field (a node's own and an allOf member's) hold together: the tighter wins. */
function tighten(bounds: Facts['bounds'], bound: Bound, value: number): void {
  const had = bounds[bound];
  bounds[bound] =
    had === undefined ? value : LOWER_BOUNDS.has(bound) ? Math.max(had, value) : Math.min(had, value);
}

const emptyFacts = (): Facts => ({ patterns: [], bounds: {}, required: new Set(), open: true });

/** `$.a`, or `$['a.b']` for a name that is not a plain identifier. */
export function childPath(parent: string, name: string): string {
  return /^[A-Za-z_$][\w$-]*$/.test(name) ? `${parent}.${name}` : `${parent}[${JSON.stringify(name)}]`;
}

const intersect = (a: unknown[] | undefined, b: unknown[]): unknown[] =>
  a === undefined
    ? [...b]
    : a.filter((value) => b.some((other) => JSON.stringify(other) === JSON.stringify(value)));

function addFacts(facts: Facts, schema: Node): void {
  if (schema.type !== undefined) {
    const types = (Array.isArray(schema.type) ? schema.type : [schema.type]).map(String);
    // OpenAPI 3.0's nullable is 3.1's "null" in the type list: the same change either way.
    if (schema.nullable === true) types.push('null');
    facts.types = facts.types
      ? facts.types.filter((type) => types.includes(type))
      : [...new Set(types)].sort();
  }
  if (typeof schema.format === 'string') facts.format = schema.format;
  if (typeof schema.pattern === 'string') facts.patterns.push(schema.pattern);
  if (Array.isArray(schema.enum)) facts.enum = intersect(facts.enum, schema.enum);
  if (schema.const !== undefined) facts.enum = intersect(facts.enum, [schema.const]);
  for (const bound of BOUNDS) {
    const value = schema[bound];
    if (typeof value !== 'number') continue;
    tighten(facts.bounds, bound, value);
  }
  // OpenAPI 3.0 writes exclusiveMinimum: true beside minimum; 3.1 writes the number itself.
  if (schema.exclusiveMinimum === true && typeof schema.minimum === 'number')
    facts.bounds.exclusiveMinimum = schema.minimum;
  if (schema.exclusiveMaximum === true && typeof schema.maximum === 'number')
    facts.bounds.exclusiveMaximum = schema.maximum;
  if (typeof schema.multipleOf === 'number') facts.multipleOf = schema.multipleOf;
  if (Array.isArray(schema.required)) for (const name of schema.required) facts.required.add(String(name));
  if (schema.additionalProperties === false) facts.open = false;
}

/**
 * Flatten a dereferenced body schema into its fields: `allOf` members fold into their field, a
 * `$ref` and the schema it names read the same, and key order does not matter. A node marked
 * `x-pacu-decision` makes everything it brings pacu's.
 */
export function collectFields(
  schema: unknown,
  path: string,
  origin: Origin = 'description',
): Map<string, Field> {
  const fields = new Map<string, Field>();
  const visit = (
    node: unknown,
    field: string,
    at: string,
    origin: Origin,
    ancestors: Set<object>,
    parent?: { field: string; name: string },
  ): void => {
    if (!isNode(node) || ancestors.has(node)) return;
    const own: Origin = typeof node['x-pacu-decision'] === 'string' ? 'decision' : origin;
    let entry = fields.get(field);
    if (!entry) {
      entry = {
        field,
        path: at,
        existence: own,
        facts: { description: emptyFacts(), decision: emptyFacts() },
        children: new Set(),
        ...(parent ? { parent: parent.field, name: parent.name } : {}),
      };
      fields.set(field, entry);
    } else if (own === 'description') entry.existence = 'description';
    addFacts(entry.facts[own], node);
    if (entry.description === undefined && typeof node.description === 'string')
      entry.description = node.description;
    const inside = new Set(ancestors).add(node);
    if (Array.isArray(node.allOf))
      node.allOf.forEach((member, index) => {
        visit(member, field, `${at}.allOf[${index}]`, own, inside, parent);
      });
    for (const key of ['anyOf', 'oneOf'] as const) {
      if (Array.isArray(node[key]))
        node[key].forEach((member, index) => {
          visit(member, `${field}<${key} ${index}>`, `${at}.${key}[${index}]`, own, inside);
        });
    }
    if (isNode(node.properties)) {
      for (const [name, child] of Object.entries(node.properties)) {
        entry.children.add(name);
        visit(child, childPath(field, name), childPath(`${at}.properties`, name), own, inside, {
          field,
          name,
        });
      }
    }
    if (node.items !== undefined) visit(node.items, `${field}[*]`, `${at}.items`, own, inside);
  };
  visit(schema, '$', path, origin, new Set());
  return fields;
}

/** The facts of both origins together: what a client of pacu's strict profile meets. */
export function effectiveFacts(field: Field): Facts {
  const { description, decision } = field.facts;
  const merged = emptyFacts();
  for (const facts of [description, decision]) {
    if (facts.types)
      merged.types = merged.types ? merged.types.filter((t) => facts.types?.includes(t)) : facts.types;
    if (facts.format !== undefined) merged.format = facts.format;
    merged.patterns.push(...facts.patterns);
    if (facts.enum) merged.enum = intersect(merged.enum, facts.enum);
    for (const [bound, value] of Object.entries(facts.bounds) as Array<[Bound, number]>) {
      tighten(merged.bounds, bound, value);
    }
    if (facts.multipleOf !== undefined) merged.multipleOf = facts.multipleOf;
    for (const name of facts.required) merged.required.add(name);
    if (!facts.open) merged.open = false;
  }
  merged.patterns.sort();
  return merged;
}
