import fc from 'fast-check';
import { isSuccess } from '../judge/envelope-checks.ts';
import { type ApiRequest, bearer, jsonRequest } from '../target/api-request.ts';
import { lifeLeftMs } from '../target/token-source.ts';
import { defineRule, PASS, type Verdict } from './rule.ts';

const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;

/**
 * "The token response returns access_token, token_type and expires_in_seconds" (RFC 6749 5.1:
 * the token's lifetime). A held token is used again later while that life lasts, without waiting on
 * purpose: refused while a new one for the same scopes is let in, it stopped early; so is every 401
 * on a held token met on the way (decision 172).
 */
export const tokenLifetimeRule = defineRule({
  id: 'auth.token-refused-early',
  category: 'auth',
  title:
    'a token is not refused before its own expires_in_seconds ran out: the oldest token of the run, used again at its end',
  // One operation shows it: the one the description secures with a bearer.
  appliesTo: (operation) => operation.bearerDocumented,
  needs: ['token', 'ids', 'held-tokens'],
  profileFor: () => 'documented',
  // Judges the run's own tokens once the other rules are done, before any rule moves the clock.
  late: true,
  run(kit) {
    const held = kit.heldTokens;
    if ('refusedEarly' in held) {
      const early = held.refusedEarly;
      return kit.once(
        async (): Promise<Verdict> => ({
          ok: false,
          reason: `a token issued ${seconds(early.ageMs)} earlier with expires_in_seconds ${early.lifeMs / 1000} was refused with HTTP ${early.response.status}; a new token for the same scopes was let in`,
          request: early.request,
          response: early.response,
        }),
      );
    }
    const { oldest } = held;
    const [body] = fc.sample(kit.validBodies(), { seed: kit.seed, numRuns: 1 }) as [Record<string, unknown>];
    const fresh = (what: string): Record<string, unknown> =>
      typeof body.reference === 'string' ? { ...body, reference: kit.referenceFor({ ...body, what }) } : body;
    return kit.once(async (): Promise<Verdict> => {
      const request: ApiRequest = jsonRequest('POST', kit.path, fresh('old token'), bearer(oldest.token));
      // Exactly this token: no refresh, no retry.
      const response = await kit.sendRaw(request);
      if (response.status < 400 || response.status >= 500) return PASS;
      // Its age when the answer was in, not when the rule chose it: a wait at the pacer or on a busy
      // host can take it past its life on the way, and a provider may refuse it then.
      const ageMs = performance.now() - oldest.issuedAt;
      if (ageMs >= oldest.lifeMs - lifeLeftMs(oldest.lifeMs)) return PASS;
      // Refused: the token's fault only if a new token for the same scopes is let in with the same body.
      const token = await kit.tokens.get(oldest.scopes);
      const again = await kit.sendRaw(jsonRequest('POST', kit.path, fresh('new token'), bearer(token)));
      if (!isSuccess(again)) return PASS;
      return {
        ok: false,
        reason: `a token issued ${seconds(ageMs)} earlier with expires_in_seconds ${oldest.lifeMs / 1000} was refused with HTTP ${response.status}; a new token for the same scopes was let in with HTTP ${again.status}`,
        request,
        response,
      };
    });
  },
});
