import fc from 'fast-check';
import { isSuccess } from '../judge/envelope-checks.ts';
import type { ApiRequest, ApiResponse } from '../target/api-request.ts';
import { takesBearer } from './read-operation.ts';
import { defineRule, PASS, type ScopeGrant, type Verdict } from './rule.ts';

type Held = Omit<ScopeGrant, 'granted'> & { readonly granted: ReadonlySet<string> };

/** Cases per operation: each sends one valid request per grant, and a read is the same request every time. */
const GRANT_RUNS = 3;

const includes = (wide: ReadonlySet<string>, narrow: ReadonlySet<string>): boolean =>
  [...narrow].every((name) => wide.has(name));

/** Refused on authority: what a target answers a token that lacks the scope (400 could be the body's fault). */
const refusedOnAuthority = (response: ApiResponse): boolean =>
  response.status === 401 || response.status === 403;

const named = (held: Held): string =>
  `a token asked for ${held.asked.join(',')} whose data.scope says ${[...held.granted].join(',')}`;

/**
 * "The granted scope is echoed in the scope field of the response", and the operations differ by
 * "which scope each needs": so what a token may do follows from its granted scope alone. A token
 * whose echo names at least the scopes of another must be let in wherever the other is: a target
 * that refuses it on authority granted it less than it echoed. (docs/decisions/070)
 */
export const grantedScopeRule = defineRule({
  id: 'auth.granted-scope',
  category: 'auth',
  title: 'a token is let in wherever a token echoing fewer scopes is: data.scope is the scope granted',
  appliesTo: takesBearer,
  needs: ['token', 'ids', 'grants'],
  profileFor: () => 'documented',
  run(kit) {
    const held: Held[] = kit.grants.map((grant) => ({ ...grant, granted: new Set(grant.granted) }));
    const requests = fc.tuple(...held.map(() => kit.valid()));
    return kit.check(
      requests,
      async (cases): Promise<Verdict> => {
        const answers: [ApiRequest, ApiResponse][] = [];
        for (const [index, valid] of cases.entries()) {
          const { token } = held[index] as Held;
          const request = { ...valid, headers: { ...valid.headers, authorization: `Bearer ${token}` } };
          answers.push([request, await kit.send(request)]);
        }
        for (const [wide, [request, response]] of answers.entries()) {
          if (!refusedOnAuthority(response)) continue;
          for (const [narrow, [, other]] of answers.entries()) {
            const [w, n] = [held[wide] as Held, held[narrow] as Held];
            if (narrow === wide || !isSuccess(other) || !includes(w.granted, n.granted)) continue;
            return {
              ok: false,
              reason: `${named(w)} got HTTP ${response.status}, while ${named(n)} got HTTP ${other.status}: the scope field does not echo the scope granted`,
              request,
              response,
            };
          }
        }
        return PASS;
      },
      GRANT_RUNS,
    );
  },
});
