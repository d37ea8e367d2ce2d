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
  PATTERNS,
  pacuConsumerPact,
  stateRef,
  successEnvelope,
  timestamp,
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
          jsonBody: successEnvelope('Virtual card found', {
            card_id: match.string(CARD_ID),
            card_name: match.string('Marketing team'),
            card_brand: match.string('VISA'),
            card_type: match.string('VIRTUAL'),
            card_status: match.string('ACTIVE'),
            card_balance: match.number(2500),
            currency: match.string('USD'),
            cvv: match.string('123'),
            expiration: match.regex('^(0[1-9]|1[0-2])/[0-9]{2}$', '09/27'),
            first_six: match.regex(PATTERNS.digits(6), '411111'),
            last_four: match.regex(PATTERNS.digits(4), '1111'),
          }),
        },
      },
      async (baseUrl) => {
        const response = await callApi(baseUrl, (api) => api.getVirtualCard(CARD_ID, exampleToken));
        const card = (response.json as { data: VirtualCard }).data;
        expect(response.status).toBe(200);
        expect(`${card.first_six}******${card.last_four}`).toBe('411111******1111');
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
          jsonBody: successEnvelope('Card transaction found', {
            transaction_id: match.string(TRANSACTION_ID),
            card_id: match.string(CARD_ID),
            amount: match.number(42.99),
            currency: match.string('USD'),
            description: match.string('Office supplies'),
            merchant_name: match.string('Paper Street Supply Co'),
            transaction_date: timestamp('2024-06-13T18:45:12Z'),
            transaction_status: match.string('processing'),
            transaction_type: match.string('PURCHASE'),
          }),
        },
      },
      async (baseUrl) => {
        const response = await callApi(baseUrl, (api) =>
          api.getCardTransaction(CARD_ID, TRANSACTION_ID, exampleToken),
        );
        const transaction = (response.json as { data: CardTransaction }).data;
        expect(response.status).toBe(200);
        expect(transaction.card_id).toBe(CARD_ID);
        expect(Number.isFinite(transaction.amount)).toBe(true);
      },
    );
  });
});
