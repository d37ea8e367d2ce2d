import fc from 'fast-check';
import { pathFor } from '../../spec/index.ts';
import { bearer, jsonRequest } from '../api-request.ts';
import { ControlApiError } from '../control-client.ts';
import { refusalProblem } from '../expect-status.ts';
import { PASS, type Rule, skipped } from '../rule.ts';

export const tokenExpiryRule: Rule = {
  id: 'auth.token-expired',
  category: 'auth',
  title: 'a token past its lifetime (the spec decides 3600 s) is refused with 401',
  operations: ['usdTransfer'],
  needs: ['token', 'ids', 'control'],
  profileFor: () => 'strict',
  // Moves the target's clock past every token's lifetime: runs alone, and every cached token is dropped.
  exclusive: true,
  async run(kit) {
    const lifetime = kit.spec.tokenLifetimeSeconds;
    const advanced = await kit.control?.advanceClock(lifetime + 1).catch((error: unknown) => {
      if (error instanceof ControlApiError) return error;
      throw error;
    });
    kit.tokens.clear();
    if (advanced instanceof ControlApiError) {
      return skipped(
        `the target's clock cannot be advanced (HTTP ${advanced.status}); start the mock with --clock manual`,
      );
    }
    const [body = {}] = fc.sample(kit.validBodies(), { seed: kit.seed, numRuns: 1 });
    return kit.once(async () => {
      const request = jsonRequest(
        'POST',
        pathFor(kit.operationSpec),
        { ...body, reference: kit.referenceFor(body) },
        bearer(kit.token),
      );
      // Exactly this old token: no refresh, no retry.
      const response = await kit.sendRaw(request);
      const problem = refusalProblem(response, 'strict', 401);
      return problem
        ? { ok: false, reason: `a token ${lifetime + 1} s old: ${problem.reason}`, request, response }
        : PASS;
    });
  },
};
