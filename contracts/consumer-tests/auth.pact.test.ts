import { afterAll, describe, expect, it } from 'vitest';
import type { AccessToken } from '../../spec/index.ts';
import { basic } from '../../suites/index.ts';
import { match } from '../pact-consumer-adapter.ts';
import { PROVIDER_STATES } from '../provider-state-names.ts';
import {
  callApi,
  jsonResponseHeaders,
  PACU_CONSUMERS,
  pacuConsumerPact,
  stateRef,
  successEnvelope,
} from './consumer-kit.ts';

const pact = pacuConsumerPact(PACU_CONSUMERS.auth);
afterAll(() => pact.save());
// Placeholders only: the verifier injects the target's real credentials from the provider state.
const grant = {
  clientId: 'merchant-client-id',
  clientSecret: 'merchant-client-secret',
  scope: 'card,us_account',
};

describe('auth consumer contract', () => {
  it('obtains a bearer token with client credentials', async () => {
    await pact.interaction(
      {
        states: [{ name: PROVIDER_STATES.validClient }],
        description: 'a token request with client credentials',
        request: {
          method: 'POST',
          path: '/auth/token',
          headers: {
            authorization: match.fromProviderState(
              `Basic ${stateRef('clientCredentials')}`,
              basic(grant.clientId, grant.clientSecret).authorization,
            ),
            'Content-Type': match.regex(
              '^application/x-www-form-urlencoded',
              'application/x-www-form-urlencoded',
            ),
          },
          formBody: new URLSearchParams({ grant_type: 'client_credentials', scope: grant.scope }).toString(),
        },
        response: {
          status: 200,
          headers: jsonResponseHeaders,
          jsonBody: successEnvelope({
            access_token: match.string('example-access-token'),
            expires_in_seconds: match.integer(3600),
            scope: match.string('card,us_account'),
            token_type: match.string('Bearer'),
          }),
        },
      },
      async (baseUrl) => {
        const response = await callApi(baseUrl, (api) => api.getAccessToken(grant));
        const token = (response.json as { data: AccessToken }).data;
        expect(response.status).toBe(200);
        expect(token.scope.split(',')).toContain('card');
        expect(token.expires_in_seconds).toBeGreaterThan(0);
      },
    );
  });
});
