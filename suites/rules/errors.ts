import fc from 'fast-check';
import { type JSONSchema7, type OperationId, schemaForProfile } from '../../spec/index.ts';
import { type ApiRequest, bearer, jsonRequest } from '../api-request.ts';
import { unknownIdArbitrary, withUnknownPathId } from '../bad-requests.ts';
import { refusalProblem } from '../expect-status.ts';
import { invalidBodyArbitrary } from '../invalid-arbitrary.ts';
import { checkProperty } from '../property.ts';
import { PASS, type Rule, Skip, skipped } from '../rule.ts';
import { bodyRuleSetup, referenceFor, validBodyArbitrary, validRequests } from '../valid-requests.ts';

const JSON_OPERATIONS: readonly OperationId[] = ['usdTransfer', 'walletPayout', 'createAccount'];

/**
 * A mutated body keeps the reference of the valid body it came from; give it its own, or a stateful
 * provider may answer for the earlier body (a replay) instead of judging this one.
 */
function withOwnReference(body: Record<string, unknown>, nonce: string): Record<string, unknown> {
  const generated = typeof body.reference === 'string' && body.reference.startsWith('pacu-');
  return generated ? { ...body, reference: referenceFor(body, nonce) } : body;
}

export const invalidBodyRule: Rule = {
  id: 'errors.invalid-body',
  category: 'errors',
  title: 'a body with a required field missing, a wrong type or a value outside its enum gets 400',
  operations: JSON_OPERATIONS,
  profileFor: () => 'documented',
  async run(context, operation) {
    const setup = await bodyRuleSetup(context, operation);
    if (setup instanceof Skip) return skipped(setup.reason);
    const { token, ids, spec } = setup;
    // What counts as invalid is the profile's view: documented constraints, or pacu's decided ones too.
    const schema = schemaForProfile(spec.requestBody?.schema as JSONSchema7, context.profile);
    const invalid = invalidBodyArbitrary(schema, validBodyArbitrary(context, spec, ids));
    if (!invalid) return skipped('the schema documents no constraint to break');
    return checkProperty(context, invalid, async ({ body, mutation }) => {
      const request = jsonRequest('POST', spec.path, withOwnReference(body, context.nonce), bearer(token));
      const response = await context.api.send(request);
      const problem = refusalProblem(response, context.profile, 400, [400]);
      return problem ? { ok: false, reason: `${mutation}: ${problem}`, request, response } : PASS;
    });
  },
};

/** Bodies that are not JSON at all, or not declared as JSON. */
function malformed(
  request: ApiRequest,
): fc.Arbitrary<{ request: ApiRequest; what: string; declaredJson: boolean }> {
  const body = request.body ?? '{}';
  return fc.constantFrom(
    { request: { ...request, body: body.slice(0, -1) }, what: 'malformed JSON', declaredJson: true },
    { request: { ...request, body: '' }, what: 'an empty body', declaredJson: true },
    {
      request: { ...request, headers: { ...request.headers, 'content-type': 'text/plain' } },
      what: 'Content-Type text/plain',
      declaredJson: false,
    },
  );
}

export const malformedRequestRule: Rule = {
  id: 'errors.malformed-request',
  category: 'errors',
  title: 'malformed JSON or an empty body gets 400; another content type gets 400 (documented: 400 or 415)',
  operations: JSON_OPERATIONS,
  profileFor: () => 'documented',
  async run(context, operation) {
    const valid = await validRequests(context, operation);
    if (valid instanceof Skip) return skipped(valid.reason);
    return checkProperty(context, valid.chain(malformed), async ({ request, what, declaredJson }) => {
      const response = await context.api.send(request);
      // 415 Unsupported Media Type is as legal a refusal of text/plain as 400: the description is silent.
      const problem = refusalProblem(response, context.profile, 400, declaredJson ? [400] : [400, 415]);
      return problem ? { ok: false, reason: `${what}: ${problem}`, request, response } : PASS;
    });
  },
};

/** Where each operation carries an id that must name a record. */
const ID_IN_BODY: Partial<Record<OperationId, string>> = {
  usdTransfer: 'account_id',
  walletPayout: 'account_id',
  createAccount: 'user_id',
};

/** The body with `field` set to an unknown id (and a fresh reference, so no idempotency check answers first). */
function withBodyId(request: ApiRequest, field: string, id: string, nonce: string): ApiRequest {
  const body: Record<string, unknown> = { ...JSON.parse(request.body ?? '{}'), [field]: id };
  if ('reference' in body) body.reference = referenceFor(body, nonce);
  return { ...request, body: JSON.stringify(body) };
}

export const unknownIdRule: Rule = {
  id: 'errors.unknown-id',
  category: 'errors',
  title: 'an id that names no record, in a path or a body, is refused (strict: 400), never 2xx or 5xx',
  operations: [
    ...JSON_OPERATIONS,
    'getCardTransaction',
    'getPushToCardPayment',
    'getVirtualCard',
    'getP2pStatus',
  ],
  profileFor: () => 'documented',
  async run(context, operation) {
    const valid = await validRequests(context, operation);
    if (valid instanceof Skip) return skipped(valid.reason);
    const field = ID_IN_BODY[operation];
    const cases = fc.tuple(valid, unknownIdArbitrary()).map(([request, id]) => ({
      id,
      request: field ? withBodyId(request, field, id, context.nonce) : withUnknownPathId(request, id),
    }));
    return checkProperty(context, cases, async ({ request, id }) => {
      const response = await context.api.send(request);
      const problem = refusalProblem(response, context.profile, 400);
      return problem ? { ok: false, reason: `unknown id ${id}: ${problem}`, request, response } : PASS;
    });
  },
};
