import fc from 'fast-check';
import { badRequests } from '../inputs/bad-requests.ts';
import { errorShapeProblem, isSuccess, successShapeProblem } from '../judge/envelope-checks.ts';
import { isJsonMediaType } from '../target/media-type.ts';
import { defineRule, PASS, skipped } from './rule.ts';

const every = (): boolean => true;
const documented = (): 'documented' => 'documented';

export const contentTypeRule = defineRule({
  id: 'envelope.content-type',
  category: 'envelope',
  title: 'every response, success or error, is declared as JSON (Content-Type parsed as a media type)',
  appliesTo: every,
  needs: ['client', 'token', 'ids'],
  profileFor: documented,
  run(kit) {
    const bad = badRequests(kit);
    const requests = bad
      ? fc.oneof(
          kit.valid(),
          bad.map(({ request }) => request),
        )
      : kit.valid();
    return kit.check(requests, async (request) => {
      const response = await kit.send(request);
      if (isJsonMediaType(response.headers['content-type'])) return PASS;
      return {
        ok: false,
        reason: `HTTP ${response.status} came with Content-Type ${response.headers['content-type'] ?? '(none)'}, not JSON`,
        request,
        response,
      };
    });
  },
});

export const successShapeRule = defineRule({
  id: 'envelope.success-shape',
  category: 'envelope',
  title: "a success response has success true, a message and data of the operation's documented shape",
  appliesTo: every,
  needs: ['client', 'token', 'ids'],
  profileFor: documented,
  run: (kit) =>
    kit.check(kit.valid(), async (request) => {
      const response = await kit.send(request);
      // Refusing a valid request is positive.accepted's finding, not this one's.
      if (!isSuccess(response)) return PASS;
      const problem = successShapeProblem(kit.spec, kit.operation, kit.profile, response);
      if (!problem) return PASS;
      // Judged again on the documented view: a body only pacu's decisions refuse fails strict alone.
      const stated =
        kit.profile === 'strict' && successShapeProblem(kit.spec, kit.operation, 'documented', response);
      return {
        ok: false,
        reason: problem,
        ...(kit.profile === 'strict' && !stated ? { profile: 'strict' as const } : {}),
        request,
        response,
      };
    }),
});

export const errorShapeRule = defineRule({
  id: 'envelope.error-shape',
  category: 'envelope',
  title:
    'every error response any rule received, and the refusal of a bad request, has success false and a string message',
  appliesTo: every,
  needs: ['client', 'token', 'ids'],
  profileFor: documented,
  // Judges the error answers every other rule received (401, 403, 409, 413…): runs after them.
  last: true,
  async run(kit) {
    const bad = kit.replayingCaseOf ? undefined : badRequests(kit);
    const own = bad
      ? await kit.check(bad, async ({ request, what }) => {
          const response = await kit.send(request);
          // Accepting a bad request is an errors.* finding; here only the shape of refusals counts.
          if (isSuccess(response)) return PASS;
          const problem = errorShapeProblem(response, kit);
          return problem ? { ok: false, reason: `refusing ${what}: ${problem}`, request, response } : PASS;
        })
      : undefined;
    if (own?.status === 'failed') return own;
    const { judged, problems } = kit.errorAnswers();
    const [first] = problems;
    if (first) {
      // The answer came in another rule's case: the failure points at that case, so its replay reruns it.
      const { receivedIn, ok: _ok, ...verdict } = first;
      return {
        status: 'failed',
        runs: judged,
        ...verdict,
        receivedBy: receivedIn.rule,
        seed: receivedIn.seed,
        ...(receivedIn.path !== undefined ? { path: receivedIn.path, counterexample: receivedIn.input } : {}),
      };
    }
    if (own) return own;
    if (judged > 0) return { status: 'passed', runs: judged };
    return skipped(
      kit.replayingCaseOf
        ? `the replayed case of ${kit.replayingCaseOf} received no error answer`
        : 'no documented input to get wrong, and no rule received an error answer',
    );
  },
});
