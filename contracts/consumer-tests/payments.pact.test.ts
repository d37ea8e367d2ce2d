import { afterAll, describe, expect, it } from 'vitest';
import type { PushToCardPayment, UsdTransfer, WalletPayout } from '../../spec/index.ts';
import { match } from '../pact-consumer-adapter.ts';
import { PROVIDER_STATES } from '../provider-state-names.ts';
import {
  bearerHeader,
  callApi,
  exampleToken,
  jsonContentType,
  jsonResponseHeaders,
  PACU_CONSUMERS,
  PATTERNS,
  pacuConsumerPact,
  stateRef,
  successEnvelope,
  timestamp,
  withClient,
} from './consumer-kit.ts';
import { ACCOUNT_ID, accountFromState, usdTransfer, usdTransferBody } from './usd-transfer-fixture.ts';

const pact = pacuConsumerPact(PACU_CONSUMERS.payments);
const transfer = usdTransfer;
afterAll(() => pact.save());
const PUSH_TO_CARD_ID = 'ptc_9a8b7c6d5e4f3a2b';

describe('payments consumer contract', () => {
  it('sends an ACH transfer and keeps its transaction id', async () => {
    await pact.interaction(
      {
        states: withClient({ name: PROVIDER_STATES.accountExists }),
        description: 'a USD transfer by ACH',
        request: {
          method: 'POST',
          path: '/payments/usd/direct',
          headers: { ...bearerHeader, ...jsonContentType },
          jsonBody: usdTransferBody(transfer),
        },
        response: {
          status: 200,
          headers: jsonResponseHeaders,
          // The echoed request fields are present because they were sent, which no schema (and so no
          // documented pact) can say: positive.echoes-request judges them. These three the note adds.
          jsonBody: successEnvelope({
            transaction_date: timestamp('2024-06-14T10:20:00Z'),
            transaction_id: match.string('txn_7f3e9a2b1c4d5e6f'),
            transaction_status: match.regex(PATTERNS.transactionStatus, 'processing'),
          }),
        },
      },
      async (baseUrl) => {
        const response = await callApi(baseUrl, (api) => api.usdTransfer(transfer, exampleToken));
        const record = (response.json as { data: UsdTransfer }).data;
        expect(response.status).toBe(200);
        expect(record.transaction_id).not.toBe('');
      },
    );
  });

  it('pays out to a wallet', async () => {
    const payout = {
      account_id: ACCOUNT_ID,
      amount: 80.5,
      wallet_id: 'sam.lee@example.com',
      recipient_name: 'Sam Lee',
      description: 'Refund for order 1881',
    };
    await pact.interaction(
      {
        states: withClient({ name: PROVIDER_STATES.accountExists }),
        description: 'a wallet payout',
        request: {
          method: 'POST',
          path: '/payments/wallet',
          headers: { ...bearerHeader, ...jsonContentType },
          jsonBody: {
            account_id: accountFromState,
            amount: match.number(payout.amount),
            wallet_id: match.regex(PATTERNS.email, payout.wallet_id),
            recipient_name: match.string(payout.recipient_name),
            description: match.string(payout.description),
          },
        },
        response: {
          status: 200,
          headers: jsonResponseHeaders,
          // Only transaction_status is stated present ("the value processing is shown on creation").
          jsonBody: successEnvelope({
            transaction_status: match.string('processing'),
          }),
        },
      },
      async (baseUrl) => {
        const response = await callApi(baseUrl, (api) => api.walletPayout(payout, exampleToken));
        const record = (response.json as { data: WalletPayout }).data;
        expect(response.status).toBe(200);
        expect(record.transaction_status).toBe('processing');
      },
    );
  });

  it('reads the final status of a push-to-card payment', async () => {
    await pact.interaction(
      {
        states: withClient({ name: PROVIDER_STATES.pushToCardExists }),
        description: 'a request for a push-to-card payment',
        request: {
          method: 'GET',
          path: match.fromProviderState(
            `/payments/card/${stateRef('pushToCardId')}`,
            `/payments/card/${PUSH_TO_CARD_ID}`,
          ),
          headers: bearerHeader,
        },
        response: {
          status: 200,
          headers: jsonResponseHeaders,
          // Only transaction_status is stated present (the States table: "shown on the records").
          jsonBody: successEnvelope({
            transaction_status: match.string('successful'),
          }),
        },
      },
      async (baseUrl) => {
        const response = await callApi(baseUrl, (api) =>
          api.getPushToCardPayment(PUSH_TO_CARD_ID, exampleToken),
        );
        const record = (response.json as { data: PushToCardPayment }).data;
        expect(response.status).toBe(200);
        expect(['processing', 'successful', 'failed']).toContain(record.transaction_status);
      },
    );
  });
});
