import fc from 'fast-check';
import { badRequests } from '../inputs/bad-requests.ts';
import { errorShapeProblem, isSuccess, successShapeProblem } from '../judge/envelope-checks.ts';
import { isJsonMediaType } from '../target/media-type.ts';
import { defineRule, PASS, type RuleKit, type RuleOutcome, skipped } from './rule.ts';

const every = (): boolean => true;
const documented = (): 'documented' => 'documented';

/** What a last rule found in the answers the other rules received, as its outcome (undefined: none judged). */
function fromObserved(kit: RuleKit<never>, self: string): RuleOutcome | undefined {
  const { judged, problems } = kit.observed();
  const [first] = problems;
  if (first) {
    // The answer came in another rule's case: the failure points at that case, so its replay reruns it.
    const { receivedIn, ok: _ok, ...verdict } = first;
    return {
      status: 'failed',
      runs: judged,
      ...verdict,
      // An answer to one of its own cases is its own failure: its replay reruns that case alone.
      ...(receivedIn.rule === self ? {} : { receivedBy: receivedIn.rule }),
      seed: receivedIn.seed,
      ...(receivedIn.path !== undefined ? { path: receivedIn.path, counterexample: receivedIn.input } : {}),
    };
  }
  return judged > 0 ? { status: 'passed', runs: judged } : undefined;
}

/** Its own few cases when no other rule sent anything here (`--rule envelope.*` alone). */
const OWN_RUNS = 5;

const CONTENT_TYPE = 'envelope.content-type';
const ERROR_SHAPE = 'envelope.error-shape';

export const contentTypeRule = defineRule({
  id: CONTENT_TYPE,
  category: 'envelope',
  title: 'every response, success or error, is declared as JSON (Content-Type parsed as a media type)',
  appliesTo: every,
  needs: ['client', 'token', 'ids'],
  profileFor: documented,
  // Judges every answer any rule received: runs after them, and sends only when none came.
  last: true,
  observe: (response) =>
    isJsonMediaType(response.headers['content-type'])
      ? undefined
      : `it came with Content-Type ${response.headers['content-type'] ?? '(none)'}, not JSON`,
  async run(kit) {
    const seen = fromObserved(kit, CONTENT_TYPE);
    if (seen || kit.replayingCaseOf)
      return seen ?? skipped(`the replayed case of ${kit.replayingCaseOf} received no answer`);
    const bad = badRequests(kit);
    const requests = bad
      ? fc.oneof(
          kit.valid(),
          bad.map(({ request }) => request),
        )
      : kit.valid();
    const own = await kit.check(
      requests,
      async (request) => {
        await kit.send(request);
        return PASS;
      },
      OWN_RUNS,
    );
    return fromObserved(kit, CONTENT_TYPE) ?? own;
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
  id: ERROR_SHAPE,
  category: 'envelope',
  title:
    'every error response any rule received, and the refusal of a bad request, has success false and a string message',
  appliesTo: every,
  needs: ['client', 'token', 'ids'],
  profileFor: documented,
  // Judges the error answers every other rule received (401, 403, 409, 413…): runs after them.
  last: true,
  observe: (response, context) =>
    response.status >= 400 ? errorShapeProblem(response, context) : 'not-judged',
  async run(kit) {
    const seen = fromObserved(kit, ERROR_SHAPE);
    if (seen || kit.replayingCaseOf)
      return seen ?? skipped(`the replayed case of ${kit.replayingCaseOf} received no error answer`);
    // No rule got an error answer here: refuse a bad request of its own, and judge that.
    const bad = badRequests(kit);
    if (!bad) return skipped('no documented input to get wrong, and no rule received an error answer');
    const own = await kit.check(
      bad,
      async ({ request }) => {
        await kit.send(request);
        return PASS;
      },
      OWN_RUNS,
    );
    return fromObserved(kit, ERROR_SHAPE) ?? own;
  },
});
