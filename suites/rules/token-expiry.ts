import fc from 'fast-check';
import { refusalProblem } from '../judge/expect-status.ts';
import { type ApiRequest, bearer } from '../target/api-request.ts';
import { responseStatus } from './read-operation.ts';
import { defineRule, PASS } from './rule.ts';

export const tokenExpiryRule = defineRule({
  id: 'auth.token-expired',
  category: 'auth',
  title:
    "a token past its lifetime (the spec decides 3600 s) is refused with the operation's Unauthorized status (401)",
  // One operation is enough to see it (it moves the clock): the one the description secures with a bearer.
  appliesTo: (operation) => operation.bearerDocumented,
  needs: ['ids', 'expired-token'],
  profileFor: () => 'strict',
  // Its token is expired by moving the target's clock past every token's lifetime: runs alone.
  exclusive: true,
  run(kit) {
    const { token, ageSeconds } = kit.expiredToken;
    const [valid] = fc.sample(kit.valid(), { seed: kit.seed, numRuns: 1 });
    const decided = responseStatus(kit.spec, kit.operationSpec, 'Unauthorized');
    return kit.once(async () => {
      const request = { ...(valid as ApiRequest), headers: { ...valid?.headers, ...bearer(token) } };
      // Exactly this old token: no refresh, no retry.
      const response = await kit.sendRaw(request);
      const problem = refusalProblem(response, 'strict', decided);
      return problem
        ? { ok: false, reason: `a token ${ageSeconds} s old: ${problem.reason}`, request, response }
        : PASS;
    });
  },
});
