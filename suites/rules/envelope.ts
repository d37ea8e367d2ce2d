import fc from 'fast-check';
import { OPERATION_IDS } from '../../spec/index.ts';
import { badRequests } from '../bad-requests.ts';
import { errorShapeProblem, isSuccess, successShapeProblem } from '../envelope-checks.ts';
import { isJsonMediaType } from '../media-type.ts';
import { checkProperty } from '../property.ts';
import { PASS, type Rule, Skip, skipped } from '../rule.ts';
import { validRequests } from '../valid-requests.ts';

const ALL = OPERATION_IDS;
const documented = (): 'documented' => 'documented';

export const contentTypeRule: Rule = {
  id: 'envelope.content-type',
  category: 'envelope',
  title: 'every response, success or error, is declared as JSON (Content-Type parsed as a media type)',
  operations: ALL,
  profileFor: documented,
  async run(context, operation) {
    const valid = await validRequests(context, operation);
    if (valid instanceof Skip) return skipped(valid.reason);
    const bad = await badRequests(context, operation);
    const requests =
      bad && !(bad instanceof Skip)
        ? fc.oneof(
            valid,
            bad.map(({ request }) => request),
          )
        : valid;
    return checkProperty(context, requests, async (request) => {
      const response = await context.api.send(request);
      if (isJsonMediaType(response.headers['content-type'])) return PASS;
      return {
        ok: false,
        reason: `HTTP ${response.status} came with Content-Type ${response.headers['content-type'] ?? '(none)'}, not JSON`,
        request,
        response,
      };
    });
  },
};

export const successShapeRule: Rule = {
  id: 'envelope.success-shape',
  category: 'envelope',
  title: "a success response has success true, a message and data of the operation's documented shape",
  operations: ALL,
  profileFor: documented,
  async run(context, operation) {
    const valid = await validRequests(context, operation);
    if (valid instanceof Skip) return skipped(valid.reason);
    return checkProperty(context, valid, async (request) => {
      const response = await context.api.send(request);
      // Refusing a valid request is positive.accepted's finding, not this one's.
      if (!isSuccess(response)) return PASS;
      const problem = successShapeProblem(context.spec, operation, context.profile, response);
      return problem ? { ok: false, reason: problem, request, response } : PASS;
    });
  },
};

export const errorShapeRule: Rule = {
  id: 'envelope.error-shape',
  category: 'envelope',
  title: 'an error response has success false and a string message',
  operations: ALL.filter((operation) => operation !== 'listUsers'),
  profileFor: documented,
  async run(context, operation) {
    const bad = await badRequests(context, operation);
    if (bad === undefined) return skipped('no documented input to get wrong');
    if (bad instanceof Skip) return skipped(bad.reason);
    return checkProperty(context, bad, async ({ request, what }) => {
      const response = await context.api.send(request);
      // Accepting a bad request is an errors.* finding; here only the shape of refusals counts.
      if (isSuccess(response)) return PASS;
      const problem = errorShapeProblem(response);
      return problem ? { ok: false, reason: `refusing ${what}: ${problem}`, request, response } : PASS;
    });
  },
};
