import { type JSONSchema7, type OperationSpec, propertiesOf, readOnce, type Spec } from '../../spec/index.ts';
import { TARGET_ID_KEYS, type TargetIds } from '../target/target-config.ts';

// What rules read of an operation, from the spec alone: no rule keeps a list of operations or
// statuses of its own, so an operation the spec adds gets every rule that applies to it.

/** An operation of any loaded spec. */
export type AnyOperation = OperationSpec<string>;

/** Takes a JSON body (its request media type says so). */
export const takesJson = (operation: AnyOperation): boolean =>
  operation.requestBody?.mediaType === 'application/json';

/** The token endpoint: authenticated with the client's credentials (HTTP Basic), not a token. */
export const isTokenEndpoint = (operation: AnyOperation): boolean => operation.security.kind === 'basic';

/** Secured with the bearer scheme (its `security`). */
export const takesBearer = (operation: AnyOperation): boolean => operation.security.kind === 'bearer';

/** The scopes its bearer security names (none: no particular scope). */
export const scopesOf = (operation: AnyOperation): readonly string[] =>
  operation.security.kind === 'bearer' ? operation.security.scopes : [];

/**
 * The status the operation's `responses` give the shared response `name` (a `$ref` to
 * `#/components/responses/<name>`), as Schemathesis reads `operation.definition.raw["responses"]`.
 */
export function responseStatus(
  spec: Spec<string>,
  operation: AnyOperation,
  name: string,
): number | undefined {
  const paths = spec.document.paths as Record<string, Record<string, { responses?: object }>> | undefined;
  const responses = paths?.[operation.path]?.[operation.method]?.responses ?? {};
  const found = Object.entries(responses).find(
    ([, response]) => (response as { $ref?: unknown }).$ref === `#/components/responses/${name}`,
  );
  return found ? Number(found[0]) : undefined;
}

/**
 * The refusal statuses decided for this operation alone: responses with an `x-pacu-decision` that
 * are written in place rather than shared (`usdTransfer`'s 409 for a reused reference).
 */
export function ownDecidedStatuses(spec: Spec<string>, operation: AnyOperation): number[] {
  const paths = spec.document.paths as Record<string, Record<string, { responses?: object }>> | undefined;
  const raw = (paths?.[operation.path]?.[operation.method]?.responses ?? {}) as Record<
    string,
    { $ref?: unknown }
  >;
  return [...operation.responses.values()]
    .filter((response) => response.decision !== undefined && raw[String(response.status)]?.$ref === undefined)
    .map((response) => response.status);
}

/** Has a body field named `name` (its schema's properties, `allOf` members' included). */
export const bodyHas = (operation: AnyOperation, name: string): boolean =>
  operation.requestBody !== undefined && name in propertiesOf(operation.requestBody.schema);

const wordsOf = (key: string): string[] =>
  key
    .replace(/([A-Z])/g, ' $1')
    .toLowerCase()
    .split(' ');

/**
 * The target id a parameter or body field names, read from its name and description: `card_id`
 * ("Identifier of the virtual card.") is `cardId`, `transaction_id` ("Identifier of the push-to-card
 * payment.") `pushToCardId`. The id whose every word is said, the most specific first.
 */
function idKeyOf(name: string, description = ''): keyof TargetIds | undefined {
  if (!name.endsWith('_id')) return undefined;
  const said = new Set(`${name} ${description}`.toLowerCase().split(/[^a-z]+/));
  return TARGET_ID_KEYS.filter((key) => wordsOf(key).every((word) => said.has(word))).sort(
    (a, b) => wordsOf(b).length - wordsOf(a).length,
  )[0];
}

/** Where an id goes in a request: a path parameter or a top-level body field, and which id. */
export interface IdSlot {
  readonly in: 'path' | 'body';
  readonly name: string;
  readonly key: keyof TargetIds;
}

/** Read once an operation: each generated request asks for its slots. */
const slotsOf = new WeakMap<AnyOperation, readonly IdSlot[]>();

/** Every id the operation's valid requests carry, from its path parameters and its body schema. */
export function idSlots(operation: AnyOperation): readonly IdSlot[] {
  return readOnce(slotsOf, operation, () => readSlots(operation));
}

function readSlots(operation: AnyOperation): readonly IdSlot[] {
  const slots: IdSlot[] = [];
  for (const parameter of operation.parameters) {
    const key = parameter.in === 'path' ? idKeyOf(parameter.name, parameter.description) : undefined;
    if (key) slots.push({ in: 'path', name: parameter.name, key });
  }
  const body = operation.requestBody?.schema;
  for (const [name, schema] of Object.entries(body ? propertiesOf(body) : {})) {
    const key = idKeyOf(name, schema.description ?? '');
    if (key) slots.push({ in: 'body', name, key });
  }
  return Object.freeze(slots);
}

// One home for what the schemas say about fields: spec/ (the mock and the replay judge read it too).
export { propertiesOf, recordFields } from '../../spec/index.ts';

/** The `required` names of a schema and of its `allOf` members, or undefined when none says any. */
export function requiredOf(schema: JSONSchema7): string[] | undefined {
  const lists = [schema.required, ...(schema.allOf ?? []).map((member) => requiredOf(member as JSONSchema7))];
  const said = lists.filter((list): list is string[] => Array.isArray(list));
  return said.length > 0 ? [...new Set(said.flat())] : undefined;
}
