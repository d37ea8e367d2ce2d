import { createHash } from 'node:crypto';
import fc from 'fast-check';
import {
  compileSchema,
  documentedSchema,
  type JSONSchema7,
  type Profile,
  schemaForProfile,
} from '../../spec/index.ts';
import { unknownPathIds } from '../inputs/bad-requests.ts';
import { type InvalidBody, invalidBodies } from '../inputs/invalid-bodies.ts';
import { wordListsOf } from '../inputs/vocabulary.ts';
import { refusalProblem } from '../judge/expect-status.ts';
import { type ApiRequest, bearer, jsonRequest } from '../target/api-request.ts';
import { idSlots, responseStatus, takesJson } from './read-operation.ts';
import { defineRule, PASS, type RuleKit, skipped, type Verdict } from './rule.ts';

/**
 * A mutated body keeps the reference of the valid body it came from; give it its own, or a stateful
 * provider may answer for the earlier body (a replay) instead of judging this one.
 */
function withOwnReference(
  kit: Pick<RuleKit<never>, 'referenceFor'>,
  body: Record<string, unknown>,
): Record<string, unknown> {
  const generated = typeof body.reference === 'string' && body.reference.startsWith('pacu-');
  return generated ? { ...body, reference: kit.referenceFor(body) } : body;
}

export const invalidBodyRule = defineRule({
  id: 'errors.invalid-body',
  category: 'errors',
  title: 'a body with a required field missing, a wrong type or a value outside its enum gets 400',
  appliesTo: takesJson,
  needs: ['token', 'ids'],
  profileFor: () => 'documented',
  async run(kit) {
    const requestSchema = kit.operationSpec.requestBody?.schema as JSONSchema7;
    // What counts as invalid is the profile's view: documented constraints, or pacu's decided ones too.
    const [base = {}] = fc.sample(kit.validBodies(), { seed: kit.seed, numRuns: 1 });
    const invalid = invalidBodies(schemaForProfile(requestSchema, kit.profile), base, wordListsOf(kit.spec));
    if (invalid.length === 0) return skipped('the schema documents no constraint to break');
    // A body only pacu's decisions reject fails a strict assertion, never the description's.
    const documentedCheck = compileSchema(documentedSchema(requestSchema));
    const badRequest = responseStatus(kit.spec, kit.operationSpec, 'BadRequest');
    // Every way to break one valid body, each once: the list is small, draws would repeat and miss.
    return kit.each(invalid, async ({ body, mutation }: InvalidBody): Promise<Verdict> => {
      const sent = withOwnReference(kit, body);
      const request = jsonRequest('POST', kit.path, sent, bearer(kit.token));
      const response = await kit.send(request);
      // "Which conditions lead to 400 (missing required fields, invalid values, …)": those two lead
      // to 400 by the description's own words; which operation checks what is what is not listed.
      const problem = refusalProblem(response, kit.profile, badRequest, [400]);
      if (!problem) return PASS;
      const profile = documentedCheck(sent).length > 0 ? problem.profile : 'strict';
      return { ok: false, reason: `${mutation}: ${problem.reason}`, profile, request, response };
    });
  },
});

/**
 * Bodies that are not JSON, and (under strict) JSON not declared as JSON. No sentence says a
 * mislabelled body is refused: that is pacu's decision (x-pacu-decisions/content-types), so the
 * text/plain case is sent under strict only and its failure is strict's.
 */
function malformed(
  request: ApiRequest,
  profile: Profile,
): { request: ApiRequest; what: string; profile: Profile }[] {
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
  return cases;
}

export const malformedRequestRule = defineRule({
  id: 'errors.malformed-request',
  category: 'errors',
  title: 'malformed JSON or an empty body is refused (strict: 400, and another content type gets 400 too)',
  appliesTo: takesJson,
  needs: ['token', 'ids'],
  profileFor: () => 'documented',
  run(kit) {
    const [valid] = fc.sample(kit.valid(), { seed: kit.seed, numRuns: 1 });
    // Two ways to be unparsable (three under strict): each once, on one valid request.
    return kit.each(malformed(valid as ApiRequest, kit.profile), async ({ request, what, profile }) => {
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
    });
  },
});

/** The body with `field` set to an unknown id (and a fresh reference, so no idempotency check answers first). */
function withBodyId(
  kit: Pick<RuleKit<never>, 'referenceFor'>,
  request: ApiRequest,
  field: string,
  id: string,
): ApiRequest {
  const body: Record<string, unknown> = { ...JSON.parse(request.body ?? '{}'), [field]: id };
  if ('reference' in body) body.reference = kit.referenceFor(body);
  return { ...request, body: JSON.stringify(body) };
}

export const unknownIdRule = defineRule({
  id: 'errors.unknown-id',
  category: 'errors',
  title: 'an id that names no record, in a path or a body, is refused (strict: 400), never 2xx or 5xx',
  appliesTo: (operation) => idSlots(operation).length > 0,
  needs: ['token', 'ids'],
  profileFor: () => 'documented',
  run(kit) {
    // An id in the body that must name a record (account_id, user_id), else the ids in the path.
    const field = idSlots(kit.operationSpec).find((slot) => slot.in === 'body')?.name;
    const decided = responseStatus(kit.spec, kit.operationSpec, 'BadRequest');
    const [valid] = fc.sample(kit.valid(), { seed: kit.seed, numRuns: 1 }) as [ApiRequest];
    // One id no target has, in each place an id goes: a different unknown id finds nothing new.
    const id = `pacu-unknown-${createHash('sha256').update(`${kit.seed}/${kit.operation}`).digest('hex').slice(0, 10)}`;
    const cases = field
      ? [{ id, request: withBodyId(kit, valid, field, id) }]
      : unknownPathIds(kit, valid, id).map((request) => ({ id, request }));
    return kit.each(cases, async ({ request, id }) => {
      const response = await kit.send(request);
      const problem = refusalProblem(response, kit.profile, decided);
      return problem
        ? { ok: false, ...problem, reason: `unknown id ${id}: ${problem.reason}`, request, response }
        : PASS;
    });
  },
});
