import fc from 'fast-check';
import { dataOf, isSuccess } from '../judge/envelope-checks.ts';
import { refusalProblem } from '../judge/expect-status.ts';
import { tokenRequest } from '../target/api-client.ts';
import type { ApiRequest } from '../target/api-request.ts';
import { parseGrantedScope, scopeFieldProblem } from '../target/token-source.ts';
import { isTokenEndpoint, requiredOf, responseStatus, scopesOf, takesBearer } from './read-operation.ts';
import { defineRule, PASS, type Verdict } from './rule.ts';

export const tokenGrantRule = defineRule({
  id: 'auth.token-grant',
  category: 'auth',
  title:
    'the token endpoint issues a token for valid client credentials, its scope field naming the granted scopes',
  appliesTo: isTokenEndpoint,
  needs: ['client', 'ids'],
  profileFor: () => 'documented',
  run: (kit) =>
    kit.check(kit.valid(), async (request) => {
      const response = await kit.send(request);
      const requested = new URLSearchParams(request.body).get('scope')?.split(',') ?? [];
      // A part of the client's scopes may be refused: no sentence says which sets a client is granted.
      const part = requested.length < kit.config.scopes.length;
      if (response.status !== 200 && part && kit.profile === 'documented' && response.status < 500)
        return PASS;
      if (response.status !== 200)
        return { ok: false, reason: `HTTP ${response.status}, expected 200`, request, response };
      const granted = dataOf(response)?.scope;
      const said = `asked for scope ${requested.join(',')}, the response's data.scope is ${JSON.stringify(granted)}`;
      const problem = scopeFieldProblem(granted);
      if (problem) return { ok: false, reason: `${said}: ${problem}`, request, response };
      // OAuth (which the description names) lets a server grant other than asked if it says so:
      // granting exactly what was asked is pacu's decision. But an echo names scopes: one asked for
      // or one the description shows, never a name from nowhere (docs/decisions/070).
      const names = parseGrantedScope(granted) ?? [];
      const known: readonly string[] = kit.spec.scopes;
      const stray = names.filter((name) => !requested.includes(name) && !known.includes(name));
      if (stray.length > 0)
        return {
          ok: false,
          reason: `${said}: ${stray.join(',')} is neither a scope asked for nor one the description shows`,
          request,
          response,
        };
      const same = names.length === requested.length && names.every((name) => requested.includes(name));
      if (kit.profile === 'strict' && !same) {
        const more = requested.every((name) => names.includes(name));
        return {
          ok: false,
          reason: `${said}: ${more ? 'more' : 'other'} than asked (pacu's decision)`,
          profile: 'strict',
          request,
          response,
        };
      }
      return PASS;
    }),
});

/** The token request without `field`: a required field of the form left out, not sent wrong. */
function withoutField(request: ApiRequest, field: string): ApiRequest {
  const form = new URLSearchParams(request.body);
  form.delete(field);
  return { ...request, body: form.toString() };
}

export const tokenRefusalRule = defineRule({
  id: 'auth.token-refusals',
  category: 'auth',
  title:
    'the token endpoint refuses a wrong client secret (strict: 401), an unsupported grant_type and a request with a required field left out, grant_type among them (strict: 400)',
  appliesTo: isTokenEndpoint,
  needs: ['client'],
  profileFor: () => 'documented',
  run(kit) {
    const { clientId, clientSecret } = kit.client;
    // The statuses pacu decided, read from the operation's responses.
    const invalidClient = responseStatus(kit.spec, kit.operationSpec, 'InvalidClient');
    const badRequest = responseStatus(kit.spec, kit.operationSpec, 'BadRequest');
    const scope = kit.config.scopes.join(',');
    const otherCase =
      clientSecret.toUpperCase() === clientSecret ? clientSecret.toLowerCase() : clientSecret.toUpperCase();
    const secrets = [
      { secret: `${clientSecret}x`, what: 'a wrong client secret' },
      { secret: otherCase, what: 'the client secret in another case' },
    ].filter(({ secret }) => secret !== clientSecret);
    // The grant types a careless server takes for client_credentials: OAuth's others, another case, a space.
    const grants = ['password', 'authorization_code', 'CLIENT_CREDENTIALS', 'client_credentials '];
    const cases = [
      ...secrets.map(({ secret, what }) => ({
        request: tokenRequest({ clientId, clientSecret: secret, scope }),
        what,
        decided: invalidClient,
      })),
      ...grants.map((grantType) => ({
        request: tokenRequest({ clientId, clientSecret, grantType, scope }),
        what: `grant_type ${JSON.stringify(grantType)}`,
        decided: badRequest,
      })),
      // "grant_type is client_credentials": a request with none is no client-credentials grant.
      ...(requiredOf(kit.operationSpec.requestBody?.schema ?? {}) ?? []).map((field) => ({
        request: withoutField(tokenRequest({ clientId, clientSecret, scope }), field),
        what: `no ${field} at all`,
        decided: badRequest,
      })),
    ];
    return kit.each(cases, async ({ request, what, decided }) => {
      const response = await kit.send(request);
      const problem = refusalProblem(response, kit.profile, decided);
      return problem
        ? { ok: false, ...problem, reason: `${what}: ${problem.reason}`, request, response }
        : PASS;
    });
  },
});

/** Ways to present no valid token: none at all, a header that is not a bearer credential, a token never issued. */
function badCredentials(token: string): { header: string | undefined; what: string }[] {
  return [
    { header: undefined, what: 'no Authorization header' },
    { header: `Token ${token}`, what: 'a malformed Authorization header' },
    { header: 'Bearer pacu-never-issued-0000000000', what: 'a token the target never issued' },
  ];
}

function withAuthorization(request: ApiRequest, header: string | undefined): ApiRequest {
  const { authorization: _dropped, ...headers } = request.headers;
  return { ...request, headers: header === undefined ? headers : { ...headers, authorization: header } };
}

export const bearerRequiredRule = defineRule({
  id: 'auth.bearer-required',
  category: 'auth',
  title: 'a request with no token, a malformed one or one never issued is refused (strict: 401)',
  appliesTo: takesBearer,
  needs: ['token', 'ids'],
  // Documented where the description states the bearer scheme; elsewhere the bearer is a decision.
  profileFor: (operation) => (operation.bearerDocumented ? 'documented' : 'strict'),
  run(kit) {
    const [request] = fc.sample(kit.valid(), { seed: kit.seed, numRuns: 1 }) as [ApiRequest];
    // Three ways to hold no token, each once on one valid request.
    return kit.each(badCredentials(kit.token), async (credentials) => {
      const sent = withAuthorization(request, credentials.header);
      const response = await kit.send(sent);
      const decided = responseStatus(kit.spec, kit.operationSpec, 'Unauthorized');
      const problem = refusalProblem(response, kit.profile, decided);
      return problem
        ? { ok: false, ...problem, reason: `${credentials.what}: ${problem.reason}`, request: sent, response }
        : PASS;
    });
  },
});

export const scopeEnforcedRule = defineRule({
  id: 'auth.scope-enforced',
  category: 'auth',
  title: "a valid token without the operation's scope is refused with the operation's Forbidden status (403)",
  appliesTo: (operation) => scopesOf(operation).length > 0,
  needs: ['token', 'ids', 'other-scopes'],
  profileFor: () => 'strict',
  run(kit) {
    const { token, scopes } = kit.otherScopes;
    const requests = kit
      .valid()
      .map((request) => ({ ...request, headers: { ...request.headers, authorization: `Bearer ${token}` } }));
    const forbidden = responseStatus(kit.spec, kit.operationSpec, 'Forbidden');
    return kit.check(requests, async (request): Promise<Verdict> => {
      const response = await kit.send(request);
      if (response.status === forbidden) return PASS;
      const how = isSuccess(response)
        ? `accepted it with HTTP ${response.status}`
        : `answered HTTP ${response.status}`;
      return {
        ok: false,
        reason: `a token with scope ${scopes.join(',')} only: the target ${how}, expected ${forbidden ?? 'a Forbidden response'}`,
        request,
        response,
      };
    });
  },
});
