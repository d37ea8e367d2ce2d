import { type ApiRequest, jsonRequest } from '../suites/index.ts';
import { CENTRAL_AMOUNT, payoutBody, transferBody } from './teaching-bodies.ts';
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
  const requests: Array<[string, (() => ApiRequest) | undefined]> = [];
  const post = (path: string, body: () => Record<string, unknown>) => () => ({
    ...jsonRequest('POST', path, body()),
  });
  if (found.accountId) {
    const transfer = () => transferBody(teacher, 'ACH', CENTRAL_AMOUNT);
    const payout = () => payoutBody(teacher, 40);
    requests.push(
      [
        'the refusal of a transfer without account_id',
        post('/payments/usd/direct', () => without(transfer(), 'account_id')),
      ],
      [
        'the refusal of an unknown account_id in a transfer',
        post('/payments/usd/direct', () => ({ ...transfer(), account_id: unknown('account') })),
      ],
      [
        'the refusal of a payout without account_id',
        post('/payments/wallet', () => without(payout(), 'account_id')),
      ],
      [
        'the refusal of an unknown account_id in a payout',
        post('/payments/wallet', () => ({ ...payout(), account_id: unknown('account') })),
      ],
    );
  }
  if (found.accountId)
    // The description marks no payout field required: whether each is.
    for (const field of ['wallet_id', 'recipient_name'])
      requests.push([
        `whether a payout without ${field} is taken`,
        post('/payments/wallet', () => without(payoutBody(teacher, 40), field)),
      ]);
  requests.push(
    ['the refusal of an account without user_id', post('/accounts', () => ({ hold_balance: true }))],
    [
      'whether an account without hold_balance is taken',
      post('/accounts', () => ({ user_id: found.userId })),
    ],
  );
  const get = (path: string) => () => ({ method: 'GET' as const, path, headers: {} });
  if (ids.cardId && ids.cardTransactionId) {
    const card = encodeURIComponent(ids.cardId);
    requests.push(
      [
        'the refusal of an unknown card_id in a card transaction path',
        get(`/cards/${unknown('card')}/transactions/${encodeURIComponent(ids.cardTransactionId)}`),
      ],
      [
        'the refusal of an unknown transaction_id in a card transaction path',
        get(`/cards/${card}/transactions/${unknown('transaction')}`),
      ],
    );
  }
  requests.push(
    ['the refusal of an unknown push-to-card transaction_id', get(`/payments/card/${unknown('payment')}`)],
    ['the refusal of an unknown user_id in a p2p path', get(`/p2p/status/${unknown('user')}`)],
  );
  for (const [teaches, make] of requests) {
    if (!make) continue;
    const request = make();
    await teacher.send(teaches, {
      ...request,
      headers: { ...request.headers, ...(await teacher.withToken()) },
    });
  }
}
