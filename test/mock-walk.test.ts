import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMock, startMock } from '../mock/index.ts';
import { compileSchema, loadSpec, type OperationId } from '../spec/index.ts';
import { call, getJson, postJson, type Reply, tokenFor, transferBody } from './mock-helpers.ts';

const spec = await loadSpec();
let mock: RunningMock;
const seen = new Set<OperationId>();

/** The reply must be a documented status of the operation and match its schema exactly. */
function expectConforms(operationId: OperationId, reply: Reply, status = 200): void {
  expect(reply.status, JSON.stringify(reply.body)).toBe(status);
  const response = spec.operation(operationId).responses.get(reply.status);
  expect(response?.schema, `${operationId} documents ${reply.status}`).toBeDefined();
  expect(compileSchema(response?.schema ?? {})(reply.body)).toEqual([]);
  seen.add(operationId);
}

beforeAll(async () => {
  mock = await startMock({ selfCheck: true, clock: 'manual' });
});
afterAll(() => mock.close());

describe('a walk through the nine operations over HTTP', () => {
  it('answers every operation with a response that validates against the spec', async () => {
    const token = await tokenFor(mock);
    const tokenReply = await call(`${mock.url}/auth/token`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from('pacu-demo:pacu-demo-secret').toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'grant_type=client_credentials&scope=card',
    });
    expectConforms('getAccessToken', tokenReply);
    expect(tokenReply.body.data).toMatchObject({
      scope: 'card',
      expires_in_seconds: 3600,
      token_type: 'Bearer',
    });

    const { seeded } = mock;
    const account = await postJson(`${mock.url}/accounts`, token, {
      hold_balance: true,
      user_id: seeded.userId,
    });
    expectConforms('createAccount', account);
    expect(account.body.data).toMatchObject({ account_status: 'ACTIVE', balance: 0 });

    const body = transferBody(account.body.data.account_id);
    const transfer = await postJson(`${mock.url}/payments/usd/direct`, token, body);
    expectConforms('usdTransfer', transfer);
    expect(transfer.body.data).toMatchObject({ reference: body.reference, transaction_status: 'processing' });

    const payout = await postJson(`${mock.url}/payments/wallet`, token, {
      account_id: seeded.merchantAccountId,
      amount: 80.5,
      wallet_id: 'sam.lee@example.com',
      recipient_name: 'Sam Lee',
    });
    expectConforms('walletPayout', payout);
    expect(payout.body.data.description).toBe('');

    expectConforms('getVirtualCard', await getJson(`${mock.url}/cards/virtual/${seeded.cardId}`, token));
    expectConforms(
      'getCardTransaction',
      await getJson(`${mock.url}/cards/${seeded.cardId}/transactions/${seeded.cardTransactionId}`, token),
    );
    expectConforms(
      'getPushToCardPayment',
      await getJson(`${mock.url}/payments/card/${seeded.pushToCardId}`, token),
    );
    const users = await getJson(`${mock.url}/users?page=3&per_page=20`, token);
    expectConforms('listUsers', users);
    expect(users.body.data).toMatchObject({ page: 3, total_count: 45, total_pages: 3 });
    expect(users.body.data.items).toHaveLength(5);
    expectConforms('getP2pStatus', await getJson(`${mock.url}/p2p/status/${seeded.userId}`, token));
    expect(seen.size).toBe(9);
  });

  it('answers errors with documented statuses and the error envelope', async () => {
    const token = await tokenFor(mock, mock.demoClient, 'card');
    const noScope = await postJson(`${mock.url}/accounts`, token, {
      hold_balance: true,
      user_id: mock.seeded.userId,
    });
    expectConforms('createAccount', noScope, 403);
    const unknownCard = await getJson(`${mock.url}/cards/virtual/card_nope`, token);
    expectConforms('getVirtualCard', unknownCard, 400);
    expect(unknownCard.body.message).toContain('card_nope');
    expectConforms('listUsers', await getJson(`${mock.url}/users?per_page=101`, token), 400);
    expectConforms('listUsers', await call(`${mock.url}/users`), 401);
  });
});
