import { afterAll, describe, expect, it } from 'vitest';
import { match } from '../pact-consumer-adapter.ts';
import { PROVIDER_STATES } from '../provider-state-names.ts';
import {
  bearerHeader,
  callApi,
  errorEnvelope,
  exampleToken,
  jsonContentType,
  jsonResponseHeaders,
  PACU_CONSUMERS,
  pacuConsumerPact,
  stateRef,
  withClient,
} from './consumer-kit.ts';
import { usdTransfer, usdTransferBody } from './usd-transfer-fixture.ts';

// What only pacu's spec decides (the description leaves it open): this pact goes to pacts/strict/ and
// is verified under --profile strict alone, so a provider that decides otherwise passes by default.
const pact = pacuConsumerPact(PACU_CONSUMERS.decisions);
afterAll(() => pact.save());

describe("pacu's decisions, as a consumer relies on them", () => {
  it('is told with 409 when a reference was already used with another body', async () => {
    const reused = { ...usdTransfer, reference: 'INV-2024-0043', amount: 99.5 };
    await pact.interaction(
      {
        states: withClient(
          { name: PROVIDER_STATES.accountExists },
          { name: PROVIDER_STATES.transferWithReferenceExists, params: { reference: reused.reference } },
        ),
        description: 'a USD transfer reusing a reference with another body',
        request: {
          method: 'POST',
          path: '/payments/usd/direct',
          headers: { ...bearerHeader, ...jsonContentType },
          jsonBody: {
            ...(usdTransferBody(reused) as object),
            reference: match.fromProviderState(stateRef('reference'), reused.reference),
          },
        },
        response: {
          status: 409,
          headers: jsonResponseHeaders,
          jsonBody: errorEnvelope('reference INV-2024-0043 was already used with a different request body'),
        },
      },
      async (baseUrl) => {
        const response = await callApi(baseUrl, (api) => api.usdTransfer(reused, exampleToken));
        expect(response.status).toBe(409);
        expect((response.json as { success: boolean }).success).toBe(false);
      },
    );
  });
});
