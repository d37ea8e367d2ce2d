import { createHash } from 'node:crypto';
import fc from 'fast-check';
import {
  type JSONSchema7,
  type OperationId,
  type OperationSpec,
  type Profile,
  pathFor,
  type Spec,
} from '../spec/index.ts';
import { tokenRequest } from './api-client.ts';
import { type ApiRequest, bearer, jsonRequest } from './api-request.ts';
import { routingNumberArbitrary } from './routing-number-arbitrary.ts';
import { arbitraryFromSchema } from './schema-arbitrary.ts';
import type { TargetConfig, TargetIds } from './target-config.ts';

/** What request generators read of the run. */
export interface RequestGeneration {
  readonly spec: Spec;
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
  operation: OperationSpec,
  ids: Required<TargetIds>,
): fc.Arbitrary<Record<string, unknown>> {
  // Generated from the spec as written: its decided bounds keep inputs inside what any careful
  // provider accepts (positive whole cents, digits for account numbers, short references).
  const schema = operation.requestBody?.schema as JSONSchema7;
  const overrides = {
    '/account_id': fc.constant(ids.accountId),
    '/user_id': fc.constant(ids.userId),
    '/routing_number': routingNumberArbitrary(),
  };
  const body = arbitraryFromSchema(schema, overrides) as fc.Arbitrary<Record<string, unknown>>;
  if (!mergeHasReference(schema)) return body;
  return body.map((value) => ({ ...value, reference: referenceFor(value, context.nonce) }));
}

function mergeHasReference(schema: JSONSchema7): boolean {
  return Boolean(schema.properties && 'reference' in schema.properties);
}

/**
 * Valid requests for an operation, built with `token` (or client credentials for the token
 * endpoint). Only path ids the user gave and parameters the profile allows are used.
 */
export function validRequestArbitrary(
  context: RequestGeneration,
  operationId: OperationId,
  token: string,
  ids: Required<TargetIds>,
): fc.Arbitrary<ApiRequest> {
  const operation = context.spec.operation(operationId);
  const auth = bearer(token);
  const get = (params: Record<string, string>): fc.Arbitrary<ApiRequest> =>
    fc.constant({ method: 'GET', path: pathFor(operation, params), headers: auth });
  switch (operationId) {
    case 'getAccessToken': {
      const { clientId = '', clientSecret = '' } = context.config;
      // The scopes the user says the client holds; a part of them only under strict: a target may
      // refuse a scope set it does not grant with 400, which no sentence forbids.
      const scopes =
        context.profile === 'strict'
          ? fc.subarray([...context.config.scopes], { minLength: 1 })
          : fc.constant(context.config.scopes);
      return scopes.map((asked) => tokenRequest({ clientId, clientSecret, scope: asked.join(',') }));
    }
    case 'usdTransfer':
    case 'walletPayout':
    case 'createAccount':
      return validBodyArbitrary(context, operation, ids).map((body) =>
        jsonRequest('POST', pathFor(operation), body, auth),
      );
    case 'getCardTransaction':
      return get({ card_id: ids.cardId, transaction_id: ids.cardTransactionId });
    case 'getPushToCardPayment':
      return get({ transaction_id: ids.pushToCardId });
    case 'getVirtualCard':
      return get({ card_id: ids.cardId });
    case 'getP2pStatus':
      return get({ user_id: ids.userId });
    case 'listUsers':
      return listUsersArbitrary(context, operation, auth);
  }
}

/** `/users`, with the decided paging parameters only under `strict` (the description shows none). */
function listUsersArbitrary(
  context: RequestGeneration,
  operation: OperationSpec,
  auth: Record<string, string>,
): fc.Arbitrary<ApiRequest> {
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
  return query.map((values) => {
    const search = new URLSearchParams(
      Object.entries(values).map(([key, value]): [string, string] => [key, String(value)]),
    );
    const text = search.toString();
    return { method: 'GET', path: `${pathFor(operation)}${text ? `?${text}` : ''}`, headers: auth };
  });
}
