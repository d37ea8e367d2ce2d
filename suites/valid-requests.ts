import { createHash } from 'node:crypto';
import fc from 'fast-check';
import type { JSONSchema7, OperationId, OperationSpec } from '../spec/index.ts';
import { tokenRequest } from './api-client.ts';
import { type ApiRequest, bearer, jsonRequest } from './api-request.ts';
import { routingNumberArbitrary } from './routing-number-arbitrary.ts';
import type { ResolvedIds, RuleContext } from './rule.ts';
import { Skip } from './rule.ts';
import { arbitraryFromSchema } from './schema-arbitrary.ts';
import { TARGET_ID_FLAGS as ID_FLAGS, type TargetIds } from './target-config.ts';

/** The ids each operation needs before a valid request can be built. */
export const IDS_NEEDED: Readonly<Record<OperationId, readonly (keyof TargetIds)[]>> = {
  getAccessToken: [],
  usdTransfer: ['accountId'],
  walletPayout: ['accountId'],
  createAccount: ['userId'],
  getCardTransaction: ['cardId', 'cardTransactionId'],
  getPushToCardPayment: ['pushToCardId'],
  getVirtualCard: ['cardId'],
  listUsers: [],
  getP2pStatus: ['userId'],
};

/** The id values an operation needs, or a {@link Skip} naming the flags to pass. */
export function requireIds(ids: ResolvedIds, operation: OperationId): Required<TargetIds> | Skip {
  const missing = IDS_NEEDED[operation].filter((key) => ids[key] === undefined);
  if (missing.length === 0) return ids as Required<TargetIds>;
  return new Skip(
    `needs ${missing.map((key) => `${ID_FLAGS[key]}`).join(' and ')} (no operation creates one)`,
  );
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
  context: RuleContext,
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

const segment = encodeURIComponent;

/**
 * Valid requests for an operation, built with `token` (or client credentials for the token
 * endpoint). Only path ids the user gave and parameters the profile allows are used.
 */
export function validRequestArbitrary(
  context: RuleContext,
  operationId: OperationId,
  token: string,
): fc.Arbitrary<ApiRequest> | Skip {
  const ids = requireIds(context.ids, operationId);
  if (ids instanceof Skip) return ids;
  const operation = context.spec.operation(operationId);
  const auth = bearer(token);
  switch (operationId) {
    case 'getAccessToken': {
      const { clientId, clientSecret } = context.config;
      if (!clientId || !clientSecret) return new Skip('needs --client-id and --client-secret');
      return fc
        .subarray([...context.config.scopes], { minLength: 1 })
        .map((scopes) => tokenRequest({ clientId, clientSecret, scope: scopes.join(',') }));
    }
    case 'usdTransfer':
    case 'walletPayout':
    case 'createAccount':
      return validBodyArbitrary(context, operation, ids).map((body) =>
        jsonRequest('POST', operation.path, body, auth),
      );
    case 'getCardTransaction':
      return fc.constant({
        method: 'GET',
        path: `/cards/${segment(ids.cardId)}/transactions/${segment(ids.cardTransactionId)}`,
        headers: auth,
      });
    case 'getPushToCardPayment':
      return fc.constant({
        method: 'GET',
        path: `/payments/card/${segment(ids.pushToCardId)}`,
        headers: auth,
      });
    case 'getVirtualCard':
      return fc.constant({ method: 'GET', path: `/cards/virtual/${segment(ids.cardId)}`, headers: auth });
    case 'getP2pStatus':
      return fc.constant({ method: 'GET', path: `/p2p/status/${segment(ids.userId)}`, headers: auth });
    case 'listUsers':
      return listUsersArbitrary(context, operation, auth);
  }
}

/** `/users`, with the decided paging parameters only under `strict` (the description shows none). */
function listUsersArbitrary(
  context: RuleContext,
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
    return { method: 'GET', path: `/users${text ? `?${text}` : ''}`, headers: auth };
  });
}

/** {@link validRequestArbitrary} with a token for the configured scopes fetched first. */
export async function validRequests(
  context: RuleContext,
  operationId: OperationId,
): Promise<fc.Arbitrary<ApiRequest> | Skip> {
  if (operationId === 'getAccessToken') return validRequestArbitrary(context, operationId, '');
  const token = await context.tokens.get();
  if (token instanceof Skip) return token;
  return validRequestArbitrary(context, operationId, token);
}

/** What a rule that posts bodies needs first: a token, the ids the operation uses, and its spec. */
export interface BodyRuleSetup {
  readonly token: string;
  readonly ids: Required<TargetIds>;
  readonly spec: OperationSpec;
}

/** {@link BodyRuleSetup} for one operation, or the Skip that says what the target config lacks. */
export async function bodyRuleSetup(
  context: RuleContext,
  operation: OperationId,
): Promise<BodyRuleSetup | Skip> {
  const token = await context.tokens.get();
  if (token instanceof Skip) return token;
  const ids = requireIds(context.ids, operation);
  if (ids instanceof Skip) return ids;
  return { token, ids, spec: context.spec.operation(operation) };
}
