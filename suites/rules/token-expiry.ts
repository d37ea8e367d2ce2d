import fc from 'fast-check';
import { pathFor } from '../../spec/index.ts';
import { bearer, jsonRequest } from '../api-request.ts';
import { refusalProblem } from '../expect-status.ts';
import { PASS, type Rule } from '../rule.ts';

export const tokenExpiryRule: Rule = {
  id: 'auth.token-expired',
  category: 'auth',
  title: 'a token past its lifetime (the spec decides 3600 s) is refused with 401',
  operations: ['usdTransfer'],
  needs: ['ids', 'expired-token'],
  profileFor: () => 'strict',
  // Its token is expired by moving the target's clock past every token's lifetime: runs alone.
  exclusive: true,
  run(kit) {
    const { token, ageSeconds } = kit.expiredToken;
    const [body = {}] = fc.sample(kit.validBodies(), { seed: kit.seed, numRuns: 1 });
    return kit.once(async () => {
      const request = jsonRequest(
        'POST',
        pathFor(kit.operationSpec),
        { ...body, reference: kit.referenceFor(body) },
        bearer(token),
      );
      // Exactly this old token: no refresh, no retry.
      const response = await kit.sendRaw(request);
      const problem = refusalProblem(response, 'strict', 401);
      return problem
        ? { ok: false, reason: `a token ${ageSeconds} s old: ${problem.reason}`, request, response }
        : PASS;
    });
  },
};
