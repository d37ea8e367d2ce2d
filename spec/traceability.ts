import { documentedSchema } from './decisions.ts';
import type { JSONSchema7 } from './json-schema.ts';
import type { Spec } from './model.ts';

/** The keywords that constrain a value; annotations (description, example) are not constraints. */
const CONSTRAINT_KEYWORDS = [
  'type',
  'const',
  'enum',
  'format',
  'pattern',
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'x-pacu-max-decimals',
  'minItems',
  'maxItems',
  'uniqueItems',
  'multipleOf',
  'minProperties',
  'maxProperties',
  'additionalProperties',
] as const;

/** The annotation that holds the sentence of the interface description a node's constraints come from. */
export const SOURCE_KEY = 'x-pacu-source';

/** One constraint of the documented view, beside the sentence of the description that states it. */
export interface TracedConstraint {
  readonly operation: string;
  /** Where in the exchange: `request.body.amount`, `response.200.data.items[].email`, `parameters.card_id`. */
  readonly path: string;
  readonly keyword: string;
  readonly value: unknown;
  /** The quoted sentence, or undefined when the spec names none (a test fails on those). */
  readonly source: string | undefined;
}

type Node = JSONSchema7 & { [SOURCE_KEY]?: string };

function walk(
  node: Node,
  path: string,
  inherited: string | undefined,
  out: Omit<TracedConstraint, 'operation'>[],
): void {
  const source = node[SOURCE_KEY] ?? inherited;
  const members = [node, ...((node.allOf ?? []) as Node[])];
  for (const member of members) {
    const own = member[SOURCE_KEY] ?? source;
    for (const keyword of CONSTRAINT_KEYWORDS) {
      const value = (member as Record<string, unknown>)[keyword];
      if (value !== undefined) out.push({ path, keyword, value, source: own });
    }
    const properties = (member.properties ?? {}) as Record<string, Node>;
    // A `required` list beside its properties is stated by each property's row; one in a member of its
    // own (no properties) is stated by that member's sentence, e.g. "The token response returns …".
    const presenceMember = member !== node && member.properties === undefined && member[SOURCE_KEY];
    for (const key of member.required ?? []) {
      const child =
        properties[key] ??
        members.map((m) => (m.properties as Record<string, Node> | undefined)?.[key]).find(Boolean);
      out.push({
        path: `${path}.${key}`,
        keyword: 'required',
        value: true,
        source: presenceMember ? own : (child?.[SOURCE_KEY] ?? own),
      });
    }
    for (const [key, child] of Object.entries(properties)) walk(child, `${path}.${key}`, undefined, out);
    if (member.items) walk(member.items as Node, `${path}[]`, undefined, out);
  }
}

/**
 * Every constraint of the documented view (decisions dropped) of every operation: its parameters,
 * its request body and its documented responses (200 and 400), each with its quoted source.
 */
export function documentedConstraints(spec: Spec): TracedConstraint[] {
  const found: TracedConstraint[] = [];
  for (const operation of spec.operations) {
    const rows: Omit<TracedConstraint, 'operation'>[] = [];
    for (const parameter of operation.parameters.filter((p) => !p.decision)) {
      const schema = parameter.schema as Node;
      const source = (parameter as unknown as { source?: string }).source ?? schema[SOURCE_KEY];
      if (parameter.required)
        rows.push({ path: `parameters.${parameter.name}`, keyword: 'required', value: true, source });
      walk(documentedSchema(schema) as Node, `parameters.${parameter.name}`, source, rows);
    }
    const body = operation.requestBody;
    if (body && body.mediaType === 'application/json')
      walk(documentedSchema(body.schema) as Node, 'request.body', undefined, rows);
    for (const response of operation.responses.values()) {
      if (response.decision || !response.schema) continue;
      walk(documentedSchema(response.schema) as Node, `response.${response.status}`, undefined, rows);
    }
    found.push(...rows.map((row) => ({ operation: operation.id, ...row })));
  }
  return found;
}
