import type { JSONSchema7 } from '../spec/index.ts';

/** One step of a Pact JSON path: a property, any array element, or any property (`*`). */
export type PathStep =
  | { readonly kind: 'property'; readonly name: string }
  | { readonly kind: 'element' }
  | { readonly kind: 'anyProperty' };

/** Parse a Pact matching-rule path (`$.data.items[*].email`, `$['a b'][0]`) into steps. */
export function parseRulePath(path: string): PathStep[] {
  const steps: PathStep[] = [];
  const pattern = /\.([A-Za-z0-9_\-$@]+|\*)|\[(\*|\d+)\]|\['((?:[^'\\]|\\.)*)'\]/g;
  const rest = path.startsWith('$') ? path.slice(1) : path;
  for (const [, dotted, bracket, quoted] of rest.matchAll(pattern)) {
    if (dotted === '*') steps.push({ kind: 'anyProperty' });
    else if (dotted !== undefined) steps.push({ kind: 'property', name: dotted });
    else if (bracket !== undefined) steps.push({ kind: 'element' });
    else if (quoted !== undefined) steps.push({ kind: 'property', name: quoted.replace(/\\(.)/g, '$1') });
  }
  return steps;
}

/** A node with every `allOf` member it implies, flattened. */
function flatten(schema: JSONSchema7): JSONSchema7[] {
  return [schema, ...(schema.allOf ?? []).flatMap(flatten)];
}

/** What the spec says about one place in a body, gathered from every schema that applies there. */
export interface SchemaFacts {
  readonly nodes: readonly JSONSchema7[];
  readonly types: readonly string[];
  readonly enum?: readonly unknown[];
  readonly patterns: readonly string[];
  /** Whether the parent object requires this property (always true for the root and elements). */
  readonly required: boolean;
}

function facts(nodes: JSONSchema7[], required: boolean): SchemaFacts {
  const types = nodes.flatMap((node) =>
    node.type === undefined ? [] : Array.isArray(node.type) ? node.type : [node.type],
  );
  const enumNode = nodes.find((node) => node.enum !== undefined || node.const !== undefined);
  const enumValues = enumNode?.enum ?? (enumNode && 'const' in enumNode ? [enumNode.const] : undefined);
  return {
    nodes,
    types: [...new Set(types)],
    ...(enumValues ? { enum: enumValues } : {}),
    patterns: nodes.flatMap((node) => (node.pattern ? [node.pattern] : [])),
    required,
  };
}

/**
 * The schema facts at `steps` under `schema`, or undefined when the spec defines nothing there
 * (a property it does not list, an element of something that is not an array).
 */
export function schemaAt(schema: JSONSchema7, steps: readonly PathStep[]): SchemaFacts | undefined {
  let nodes = flatten(schema);
  let required = true;
  for (const step of steps) {
    const next: JSONSchema7[] = [];
    if (step.kind === 'property') {
      required = nodes.some((node) => node.required?.includes(step.name));
      for (const node of nodes) {
        const child = node.properties?.[step.name];
        if (child) next.push(...flatten(child));
      }
    } else if (step.kind === 'element') {
      required = true;
      for (const node of nodes) if (node.items) next.push(...flatten(node.items));
    } else {
      required = false;
      for (const node of nodes)
        for (const child of Object.values(node.properties ?? {})) next.push(...flatten(child));
    }
    if (next.length === 0) return undefined;
    nodes = next;
  }
  return facts(nodes, required);
}

/** Does a schema `type` list admit a JSON type? (`number` admits `integer`.) */
export function typeAllowed(types: readonly string[], type: string): boolean {
  return types.length === 0 || types.includes(type) || (type === 'integer' && types.includes('number'));
}
