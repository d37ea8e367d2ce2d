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
          jsonBody: successEnvelope('Transfer created', {
            account_number: match.string(transfer.account_number),
            account_type: match.regex(PATTERNS.accountType, 'CHECKING'),
            amount: match.number(transfer.amount),
            description: match.string(transfer.description),
            reference: match.string(transfer.reference),
            recipient_email: match.string(transfer.recipient_email),
            recipient_name: match.string(transfer.recipient_name),
            routing_number: match.string(transfer.routing_number),
            transaction_date: timestamp('2024-06-14T10:20:00Z'),
            transaction_id: match.string('txn_7f3e9a2b1c4d5e6f'),
            transaction_status: match.regex(PATTERNS.transactionStatus, 'processing'),
            transfer_type: match.regex(PATTERNS.transferType, 'ACH'),
          }),
        },
      },
      async (baseUrl) => {
        const response = await callApi(baseUrl, (api) => api.usdTransfer(transfer, exampleToken));
        const record = (response.json as { data: UsdTransfer }).data;
        expect(response.status).toBe(200);
        expect(record.reference).toBe(transfer.reference);
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
          jsonBody: successEnvelope('Wallet payout created', {
            amount: match.number(payout.amount),
            description: match.string(payout.description),
            wallet_id: match.regex(PATTERNS.email, payout.wallet_id),
            recipient_name: match.string(payout.recipient_name),
            transaction_date: timestamp('2024-06-14T10:21:30Z'),
            transaction_id: match.string('wpo_1a2b3c4d5e6f7a8b'),
            transaction_status: match.string('processing'),
          }),
        },
      },
      async (baseUrl) => {
        const response = await callApi(baseUrl, (api) => api.walletPayout(payout, exampleToken));
        const record = (response.json as { data: WalletPayout }).data;
        expect(response.status).toBe(200);
        expect(record.wallet_id).toBe(payout.wallet_id);
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
          jsonBody: successEnvelope('Push-to-card payment found', {
            transaction_id: match.string(PUSH_TO_CARD_ID),
            amount: match.number(150),
            card_number: match.string('411111******1111'),
            description: match.string('Driver payout week 23'),
            transaction_date: timestamp('2024-06-12T09:00:00Z'),
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
