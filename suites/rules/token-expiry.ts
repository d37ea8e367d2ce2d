import fc from 'fast-check';
import { bearer, jsonRequest } from '../api-request.ts';
import { ControlApiError, createControlClient } from '../control-client.ts';
import { refusalProblem } from '../expect-status.ts';
import { checkOnce } from '../property.ts';
import { PASS, type Rule, Skip, skipped } from '../rule.ts';
import { bodyRuleSetup, referenceFor, validBodyArbitrary } from '../valid-requests.ts';

export const tokenExpiryRule: Rule = {
  id: 'auth.token-expired',
  category: 'auth',
  title: 'a token past its lifetime (the spec decides 3600 s) is refused with 401',
  operations: ['usdTransfer'],
  profileFor: () => 'strict',
  // Moves the target's clock past every token's lifetime: runs alone, and every cached token is dropped.
  exclusive: true,
  async run(context) {
    if (context.config.controlUrl === undefined) {
      return skipped(
        `needs --control-url: pacu moves a pacu mock's clock past the token lifetime (${context.spec.tokenLifetimeSeconds} s) instead of waiting`,
      );
    }
    const setup = await bodyRuleSetup(context, 'usdTransfer');
    if (setup instanceof Skip) return skipped(setup.reason);
    const { token, ids, spec } = setup;
    const advanced = await createControlClient(context.config.controlUrl)
      .advanceClock(context.spec.tokenLifetimeSeconds + 1)
      .catch((error: unknown) => {
        if (error instanceof ControlApiError) return error;
        throw error;
      });
    context.tokens.clear();
    if (advanced instanceof ControlApiError) {
      return skipped(
        `the target's clock cannot be advanced (HTTP ${advanced.status}); start the mock with --clock manual`,
      );
    }
    const [body = {}] = fc.sample(validBodyArbitrary(context, spec, ids), { seed: context.seed, numRuns: 1 });
    return checkOnce(async () => {
      const request = jsonRequest(
        'POST',
        spec.path,
        { ...body, reference: referenceFor(body, context.nonce) },
        bearer(token),
      );
      const response = await context.api.send(request);
      const problem = refusalProblem(response, 'strict', 401);
      return problem
        ? {
            ok: false,
            reason: `a token ${context.spec.tokenLifetimeSeconds + 1} s old: ${problem}`,
            request,
            response,
          }
        : PASS;
    });
  },
};
