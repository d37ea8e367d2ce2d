import type { CheckId } from '../checks.ts';
import { asNode, type Node } from './description.ts';
import type { Emitter, Place } from './emitter.ts';
import { diffSchemas } from './schema-diff.ts';

/** The checks a header change is told by: a webhook's or an operation response's. */
export interface HeaderChecks {
  readonly requiredRemoved: CheckId;
  readonly optionalRemoved: CheckId;
  readonly added: CheckId;
}

/** A webhook's header parameters by name, in the shape of a response's `headers` map. */
export function headerParameters(operation: Node): Node {
  const parameters = Array.isArray(operation.parameters) ? operation.parameters.map(asNode) : [];
  return Object.fromEntries(parameters.filter((p) => p.in === 'header').map((p) => [String(p.name), p]));
}

/**
 * Compare the headers a client reads (`name → { required, schema }`): a required one gone breaks its
 * readers, an optional one gone leaves them with nothing, a new one is ignored; both versions' schemas
 * are compared as a response's.
 */
export function diffHeaders(
  before: Node,
  after: Node,
  path: string,
  place: Place,
  checks: HeaderChecks,
  out: Emitter,
): void {
  const origin = place.base ?? 'description';
  for (const [name, raw] of Object.entries(before)) {
    const header = asNode(raw);
    const next = after[name];
    if (next === undefined) {
      const required = header.required === true;
      out.emit(required ? checks.requiredRemoved : checks.optionalRemoved, origin, place, {
        path,
        field: `header ${name}`,
        message: `${place.subject} no longer carries the ${required ? '' : 'optional '}header \`${name}\`: ${place.who} that read it ${required ? 'break' : 'get nothing'}`,
      });
      continue;
    }
    diffSchemas(
      header.schema,
      asNode(next).schema,
      `${path}.${name}.schema`,
      { ...place, subject: `the header \`${name}\` of ${place.subject}`, root: `\`${name}\`` },
      out,
    );
  }
  for (const name of Object.keys(after))
    if (!(name in before))
      out.emit(checks.added, origin, place, {
        path,
        field: `header ${name}`,
        message: `${place.subject} carries a new header \`${name}\``,
      });
}
