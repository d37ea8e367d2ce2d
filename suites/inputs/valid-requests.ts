import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { documentedSchema, type JSONSchema7, type Profile, pathFor, type Spec } from '../../spec/index.ts';
import {
  type AnyOperation,
  idSlots,
  isTokenEndpoint,
  propertiesOf,
  requiredOf,
  takesJson,
} from '../rules/read-operation.ts';
import { tokenRequest } from '../target/api-client.ts';
import { type ApiRequest, bearer, jsonRequest } from '../target/api-request.ts';
import type { IdValues } from '../target/resolve-ids.ts';
import type { TargetConfig } from '../target/target-config.ts';
import { routingNumberArbitrary } from './routing-number-arbitrary.ts';
import { arbitraryFromSchema } from './schema-arbitrary.ts';

/** What request generators read of the run. */
export interface RequestGeneration {
  readonly spec: Spec<string>;
  readonly profile: Profile;
  readonly config: TargetConfig;
  /** Random per run and rule, never part of a generated input: keeps references fresh across runs. */
  readonly nonce: string;
}

/**
 * A reference unique to this body and this run: the same body keeps its reference (so a shrunk
 * or replayed case stays idempotent) while two different bodies never share one by accident.
 */
export function referenceFor(body: Record<string, unknown>, nonce: string): string {
  const { reference: _ignored, ...rest } = body;
  const digest = createHash('sha256').update(JSON.stringify(rest)).digest('hex').slice(0, 16);
  return `pacu-${nonce}-${digest}`;
}

/** The request body arbitrary of a JSON operation: the spec's schema, ids and checksums filled in. */
export function validBodyArbitrary(
  context: Pick<RequestGeneration, 'nonce'>,
  operation: AnyOperation,
  ids: IdValues,
): fc.Arbitrary<Record<string, unknown>> {
  // Generated from the spec as written: its decided bounds keep inputs inside what any careful
  // provider accepts (positive whole cents, digits for account numbers, short references).
  const schema = sendingEveryUnstatedField(operation.requestBody?.schema as JSONSchema7);
  const overrides: Record<string, fc.Arbitrary<unknown>> = { '/routing_number': routingNumberArbitrary() };
  for (const slot of idSlots(operation))
    if (slot.in === 'body') overrides[`/${slot.name}`] = fc.constant(ids[slot.key]);
  const body = arbitraryFromSchema(schema, overrides) as fc.Arbitrary<Record<string, unknown>>;
  if (!mergeHasReference(schema)) return body;
  return body.map((value) => ({ ...value, reference: referenceFor(value, context.nonce) }));
}

/**
 * The request schema with every field present that the description does not say may be left out:
 * where it states which fields are required (the USD transfer's table), the others may be absent;
 * where it does not ("Endpoint 3: which fields are required: not shown"), a provider may require
 * them all, so a valid request carries them all.
 */
function sendingEveryUnstatedField(schema: JSONSchema7): JSONSchema7 {
  const stated = requiredOf(documentedSchema(schema));
  const present = stated ? (requiredOf(schema) ?? []) : Object.keys(propertiesOf(schema));
  return { ...schema, required: [...new Set([...(schema.required ?? []), ...present])] };
}

function mergeHasReference(schema: JSONSchema7): boolean {
  return Boolean(schema.properties && 'reference' in schema.properties);
}

/**
 * Valid requests for an operation, read from its spec: client credentials for the token endpoint,
 * else `token` (when the rule holds one) with the ids in its path and body, the parameters the
 * profile allows in its query, and a body generated from its schema.
 */
export function validRequestArbitrary(
  context: RequestGeneration,
  operation: AnyOperation,
  token: string | undefined,
  ids: IdValues,
): fc.Arbitrary<ApiRequest> {
  if (isTokenEndpoint(operation)) {
    const { clientId = '', clientSecret = '' } = context.config;
    // The scopes the user says the client holds, and each one alone (a token answer may differ for
    // one scope); under strict any part of them. A target may refuse a part with 400, which no
    // sentence forbids: positive.accepted reports it as a bound, never fails it.
    const configured = context.config.scopes;
    const singles = configured.length > 1 ? configured.map((scope) => [scope]) : [];
    const scopes =
      context.profile === 'strict'
        ? fc.subarray([...configured], { minLength: 1 })
        : fc.constantFrom<readonly string[]>(configured, ...singles);
    return scopes.map((asked) => tokenRequest({ clientId, clientSecret, scope: asked.join(',') }));
  }
  const auth = token === undefined ? {} : bearer(token);
  const path = pathWithIds(operation, ids);
  const method = operation.method.toUpperCase() as ApiRequest['method'];
  if (takesJson(operation))
    return validBodyArbitrary(context, operation, ids).map((body) => jsonRequest(method, path, body, auth));
  return queryArbitrary(context, operation).map((query) => ({
    method,
    path: `${path}${query ? `?${query}` : ''}`,
    headers: auth,
  }));
}

/** The operation's path with its ids in place (every path parameter names an id, or pathFor says which does not). */
export function pathWithIds(operation: AnyOperation, ids: IdValues): string {
  const params = Object.fromEntries(
    idSlots(operation)
      .filter((slot) => slot.in === 'path')
      .map((slot) => [slot.name, ids[slot.key] as string]),
  );
  return pathFor(operation, params);
}

/** The query parameters of an operation, the decided ones (paging) only under `strict`. */
function queryArbitrary(context: RequestGeneration, operation: AnyOperation): fc.Arbitrary<string> {
  const parameters = operation.parameters.filter(
    (parameter) => parameter.in === 'query' && (context.profile === 'strict' || !parameter.decision),
  );
  const query = fc.record(
    Object.fromEntries(
      parameters.map((parameter) => [
        parameter.name,
        arbitraryFromSchema({ ...parameter.schema, maximum: parameter.schema.maximum ?? 5 }),
      ]),
    ),
    { requiredKeys: [] },
  );
  return query.map((values) =>
    new URLSearchParams(
      Object.entries(values).map(([key, value]): [string, string] => [key, String(value)]),
    ).toString(),
  );
}
