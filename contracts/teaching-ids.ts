import { type ApiRequest, jsonRequest } from '../suites/index.ts';
import { CENTRAL_AMOUNT, pathOf, payoutBody, transferBody } from './teaching-bodies.ts';
import type { Teacher } from './teaching-context.ts';

const without = (body: Record<string, unknown>, field: string): Record<string, unknown> => {
  const { [field]: _left, ...rest } = body;
  return rest;
};

/**
 * A missing and an unknown value of each identifier in each place it is sent (the body's
 * account_id and user_id, each path parameter), so a refusal's message is learned per field; and
 * each field the description marks required nowhere (a payout's, an account's), left out.
 */
export async function teachIds(teacher: Teacher): Promise<void> {
  const { found, ids, tag } = teacher;
  const unknown = (what: string) => `pacu-unknown-${what}-${tag}`;
  // Made when sent, so each body has a reference of its own.
  const requests: Array<[string, () => ApiRequest]> = [];
  const post = (path: string, body: () => Record<string, unknown>) => () => jsonRequest('POST', path, body());
  if (found.accountId) {
    const transfer = () => transferBody(teacher, 'ACH', CENTRAL_AMOUNT);
    const payout = () => payoutBody(teacher, 40);
    requests.push(
      [
        'the refusal of a transfer without account_id',
        post(pathOf('usdTransfer'), () => without(transfer(), 'account_id')),
      ],
      [
        'the refusal of an unknown account_id in a transfer',
        post(pathOf('usdTransfer'), () => ({ ...transfer(), account_id: unknown('account') })),
      ],
      [
        'the refusal of a payout without account_id',
        post(pathOf('walletPayout'), () => without(payout(), 'account_id')),
      ],
      [
        'the refusal of an unknown account_id in a payout',
        post(pathOf('walletPayout'), () => ({ ...payout(), account_id: unknown('account') })),
      ],
    );
  }
  if (found.accountId)
    // The description marks no payout field required: whether each is.
    for (const field of ['wallet_id', 'recipient_name'])
      requests.push([
        `whether a payout without ${field} is taken`,
        post(pathOf('walletPayout'), () => without(payoutBody(teacher, 40), field)),
      ]);
  requests.push([
    'the refusal of an account without user_id',
    post(pathOf('createAccount'), () => ({ hold_balance: true })),
  ]);
  if (found.userId)
    requests.push([
      'whether an account without hold_balance is taken',
      post(pathOf('createAccount'), () => ({ user_id: found.userId })),
    ]);
  const get = (path: string) => () => ({ method: 'GET' as const, path, headers: {} });
  if (ids.cardId && ids.cardTransactionId) {
    requests.push(
      [
        'the refusal of an unknown card_id in a card transaction path',
        get(
          pathOf('getCardTransaction', { card_id: unknown('card'), transaction_id: ids.cardTransactionId }),
        ),
      ],
      [
        'the refusal of an unknown transaction_id in a card transaction path',
        get(pathOf('getCardTransaction', { card_id: ids.cardId, transaction_id: unknown('transaction') })),
      ],
    );
  }
  requests.push(
    [
      'the refusal of an unknown push-to-card transaction_id',
      get(pathOf('getPushToCardPayment', { transaction_id: unknown('payment') })),
    ],
    [
      'the refusal of an unknown user_id in a p2p path',
      get(pathOf('getP2pStatus', { user_id: unknown('user') })),
    ],
  );
  for (const [teaches, make] of requests) {
    const request = make();
    await teacher.send(teaches, {
      ...request,
      headers: { ...request.headers, ...(await teacher.withToken()) },
    });
  }
}
