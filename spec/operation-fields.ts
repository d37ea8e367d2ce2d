import type { JSONSchema7 } from './json-schema.ts';
import type { OperationSpec } from './model.ts';
import { readOnce } from './pending-once.ts';

// What an operation's schemas say about its fields, read once here for every part of pacu: the
// check rules, the replay judge and the mock that learns from a recording read the same facts.

/** Read once a schema: the rules ask for the same request schema's fields on every request. */
const declared = new WeakMap<JSONSchema7, Readonly<Record<string, JSONSchema7>>>();

/** The properties a schema declares, its `allOf` members' included. */
export function propertiesOf(schema: JSONSchema7): Readonly<Record<string, JSONSchema7>> {
  return readOnce(declared, schema, () => Object.freeze(readProperties(schema)));
}

function readProperties(schema: JSONSchema7): Record<string, JSONSchema7> {
  const own = Object.entries(schema.properties ?? {}).filter(
    (entry): entry is [string, JSONSchema7] => typeof entry[1] === 'object',
  );
  return Object.assign(
    {},
    ...(schema.allOf ?? []).map((member) => propertiesOf(member as JSONSchema7)),
    Object.fromEntries(own),
  );
}

/** The fields of the 200 record (`data`) the operation documents. */
export function recordFields(operation: OperationSpec<string>): readonly string[] {
  const success = operation.responses.get(200)?.schema;
  const data = success ? propertiesOf(success).data : undefined;
  return data ? Object.keys(propertiesOf(data)) : [];
}

/** The fields a request carries: its body's properties and its path parameters, by name. */
export function requestFieldNames(operation: OperationSpec<string>): readonly string[] {
  const body = operation.requestBody ? Object.keys(propertiesOf(operation.requestBody.schema)) : [];
  const path = operation.parameters.filter((parameter) => parameter.in === 'path').map(({ name }) => name);
  return [...new Set([...path, ...body])];
}

/** What an operation's answer repeats of its request. */
export interface EchoFact {
  /** Request fields the record documents: the answer repeats each one the request carried. */
  readonly fields: readonly string[];
  /** A sentence states it ("The response echoes the request fields"); else it is pacu's expectation. */
  readonly stated: boolean;
  /**
   * `grant`: the answer echoes what was granted, which may be other than what was asked ("The
   * granted scope is echoed in the scope field"); `request`: what was sent.
   */
  readonly of: 'request' | 'grant';
}

/**
 * The echo of an operation, from its description and schemas: the request's fields that its record
 * documents too. Undefined when the record documents none of them.
 *
 * @example
 * echoOf(spec.operation('usdTransfer')); // { fields: ['account_number', …], stated: true, of: 'request' }
 */
export function echoOf(operation: OperationSpec<string>): EchoFact | undefined {
  const record = recordFields(operation);
  const fields = requestFieldNames(operation).filter((name) => record.includes(name));
  if (fields.length === 0) return undefined;
  const { description } = operation;
  return {
    fields,
    stated: /\bechoe[sd]\b/i.test(description),
    of: /\bgranted\b[^.]*\bechoed\b/i.test(description) ? 'grant' : 'request',
  };
}
