import fc from 'fast-check';
import {
  compileSchema,
  documentedSchema,
  type JSONSchema7,
  type OperationId,
  type Profile,
  pathFor,
  schemaForProfile,
} from '../../spec/index.ts';
import { type ApiRequest, bearer, jsonRequest } from '../api-request.ts';
import { unknownIdArbitrary, withUnknownPathId } from '../bad-requests.ts';
import { refusalProblem } from '../expect-status.ts';
import { invalidBodyArbitrary } from '../invalid-arbitrary.ts';
import { PASS, type Rule, type RuleKit, skipped } from '../rule.ts';

const JSON_OPERATIONS: readonly OperationId[] = ['usdTransfer', 'walletPayout', 'createAccount'];

/**
 * A mutated body keeps the reference of the valid body it came from; give it its own, or a stateful
 * provider may answer for the earlier body (a replay) instead of judging this one.
 */
function withOwnReference(kit: RuleKit, body: Record<string, unknown>): Record<string, unknown> {
  const generated = typeof body.reference === 'string' && body.reference.startsWith('pacu-');
  return generated ? { ...body, reference: kit.referenceFor(body) } : body;
}

export const invalidBodyRule: Rule = {
  id: 'errors.invalid-body',
  category: 'errors',
  title: 'a body with a required field missing, a wrong type or a value outside its enum gets 400',
  operations: JSON_OPERATIONS,
  needs: ['token', 'ids'],
  profileFor: () => 'documented',
  run(kit) {
    const requestSchema = kit.operationSpec.requestBody?.schema as JSONSchema7;
    // What counts as invalid is the profile's view: documented constraints, or pacu's decided ones too.
    const invalid = invalidBodyArbitrary(schemaForProfile(requestSchema, kit.profile), kit.validBodies());
    if (!invalid) return Promise.resolve(skipped('the schema documents no constraint to break'));
    // A body only pacu's decisions reject fails a strict assertion, never the description's.
    const documentedCheck = compileSchema(documentedSchema(requestSchema));
    return kit.check(invalid, async ({ body, mutation }) => {
      const sent = withOwnReference(kit, body);
      const request = jsonRequest('POST', pathFor(kit.operationSpec), sent, bearer(kit.token));
      const response = await kit.send(request);
      const problem = refusalProblem(response, kit.profile, 400, [400]);
      if (!problem) return PASS;
      const profile = documentedCheck(sent).length > 0 ? problem.profile : 'strict';
      return { ok: false, reason: `${mutation}: ${problem.reason}`, profile, request, response };
    });
  },
};

/**
 * Bodies that are not JSON, and (under strict) JSON not declared as JSON. No sentence says a
 * mislabelled body is refused: that is pacu's decision (x-pacu-decisions/content-types), so the
 * text/plain case is sent under strict only and its failure is strict's.
 */
function malformed(
  request: ApiRequest,
  profile: Profile,
): fc.Arbitrary<{ request: ApiRequest; what: string; profile: Profile }> {
  const body = request.body ?? '{}';
  const cases: { request: ApiRequest; what: string; profile: Profile }[] = [
    {
      request: { ...request, body: body.slice(0, -1) },
      what: 'malformed JSON',
      profile: 'documented',
    },
    { request: { ...request, body: '' }, what: 'an empty body', profile: 'documented' },
  ];
  if (profile === 'strict')
    cases.push({
      request: { ...request, headers: { ...request.headers, 'content-type': 'text/plain' } },
      what: 'Content-Type text/plain',
      profile: 'strict',
    });
  return fc.constantFrom(...cases);
}

export const malformedRequestRule: Rule = {
  id: 'errors.malformed-request',
  category: 'errors',
  title: 'malformed JSON or an empty body gets 400 (strict: another content type gets 400 too)',
  operations: JSON_OPERATIONS,
  needs: ['token', 'ids'],
  profileFor: () => 'documented',
  run: (kit) =>
    kit.check(
      kit.valid().chain((valid) => malformed(valid, kit.profile)),
      async ({ request, what, profile }) => {
        const response = await kit.send(request);
        const problem = refusalProblem(response, kit.profile, 400, [400]);
        if (!problem) return PASS;
        return {
          ok: false,
          ...problem,
          ...(profile === 'strict' ? { profile } : {}),
          reason: `${what}: ${problem.reason}`,
          request,
          response,
        };
      },
    ),
};

/** Where each operation carries an id that must name a record. */
const ID_IN_BODY: Partial<Record<OperationId, string>> = {
  usdTransfer: 'account_id',
  walletPayout: 'account_id',
  createAccount: 'user_id',
};

/** The body with `field` set to an unknown id (and a fresh reference, so no idempotency check answers first). */
function withBodyId(kit: RuleKit, request: ApiRequest, field: string, id: string): ApiRequest {
  const body: Record<string, unknown> = { ...JSON.parse(request.body ?? '{}'), [field]: id };
  if ('reference' in body) body.reference = kit.referenceFor(body);
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
  needs: ['token', 'ids'],
  profileFor: () => 'documented',
  run(kit) {
    const field = ID_IN_BODY[kit.operation];
    const cases = fc.tuple(kit.valid(), unknownIdArbitrary()).map(([request, id]) => ({
      id,
      request: field ? withBodyId(kit, request, field, id) : withUnknownPathId(kit, request, id),
    }));
    return kit.check(cases, async ({ request, id }) => {
      const response = await kit.send(request);
      const problem = refusalProblem(response, kit.profile, 400);
      return problem
        ? { ok: false, ...problem, reason: `unknown id ${id}: ${problem.reason}`, request, response }
        : PASS;
    });
  },
};
