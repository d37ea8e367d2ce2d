import { afterAll, describe, expect, it } from 'vitest';
import type { CardTransaction, VirtualCard } from '../../spec/index.ts';
import { match } from '../pact-consumer-adapter.ts';
import { PROVIDER_STATES } from '../provider-state-names.ts';
import {
  bearerHeader,
  callApi,
  exampleToken,
  jsonResponseHeaders,
  PACU_CONSUMERS,
  pacuConsumerPact,
  stateRef,
  successEnvelope,
  withClient,
} from './consumer-kit.ts';

const pact = pacuConsumerPact(PACU_CONSUMERS.cards);
afterAll(() => pact.save());
const CARD_ID = 'card_8e7d6c5b4a39281f';
const TRANSACTION_ID = 'ctx_5c1d2e3f4a5b6c7d';

describe('cards consumer contract', () => {
  it('reads a virtual card and shows its masked number', async () => {
    await pact.interaction(
      {
        states: withClient({ name: PROVIDER_STATES.virtualCardExists }),
        description: 'a request for a virtual card',
        request: {
          method: 'GET',
          path: match.fromProviderState(`/cards/virtual/${stateRef('cardId')}`, `/cards/virtual/${CARD_ID}`),
          headers: bearerHeader,
        },
        response: {
          status: 200,
          headers: jsonResponseHeaders,
          // The card's table gives each field a type, not its presence: a consumer may rely on the record alone.
          jsonBody: successEnvelope({}),
        },
      },
      async (baseUrl) => {
        const response = await callApi(baseUrl, (api) => api.getVirtualCard(CARD_ID, exampleToken));
        const card = (response.json as { data: Partial<VirtualCard> }).data;
        expect(response.status).toBe(200);
        expect(typeof card).toBe('object');
      },
    );
  });

  it('reads one transaction of a virtual card', async () => {
    await pact.interaction(
      {
        states: withClient({ name: PROVIDER_STATES.cardTransactionExists }),
        description: 'a request for a transaction of a virtual card',
        request: {
          method: 'GET',
          path: match.fromProviderState(
            `/cards/${stateRef('cardId')}/transactions/${stateRef('cardTransactionId')}`,
            `/cards/${CARD_ID}/transactions/${TRANSACTION_ID}`,
          ),
          headers: bearerHeader,
        },
        response: {
          status: 200,
          headers: jsonResponseHeaders,
          // Of the record's fields only transaction_status is stated present ("shown on the records").
          jsonBody: successEnvelope({
            transaction_status: match.string('processing'),
          }),
        },
      },
      async (baseUrl) => {
        const response = await callApi(baseUrl, (api) =>
          api.getCardTransaction(CARD_ID, TRANSACTION_ID, exampleToken),
        );
        const transaction = (response.json as { data: CardTransaction }).data;
        expect(response.status).toBe(200);
        expect(transaction.transaction_status).toBe('processing');
      },
    );
  });
});
