import { type ApiRequest, bearer, jsonRequest } from '../suites/index.ts';
import { CENTRAL_AMOUNT, payoutBody, transferBody } from './teaching-bodies.ts';
import type { Teacher } from './teaching-context.ts';

/** Each operation but the token's, as the happy path sends it, where the session has what it needs. */
export function operationRequests(
  teacher: Teacher,
): Array<[string, (headers: Record<string, string>) => ApiRequest]> {
  const { found, ids } = teacher;
  const get = (path: string) => (headers: Record<string, string>) => ({
    method: 'GET' as const,
    path,
    headers,
  });
  const requests: Array<[string, ((headers: Record<string, string>) => ApiRequest) | undefined]> = [
    [
      'usdTransfer',
      found.accountId
        ? (h) => jsonRequest('POST', '/payments/usd/direct', transferBody(teacher, 'ACH', CENTRAL_AMOUNT), h)
        : undefined,
    ],
    [
      'walletPayout',
      found.accountId
        ? (h) => jsonRequest('POST', '/payments/wallet', payoutBody(teacher, 40), h)
        : undefined,
    ],
    [
      'createAccount',
      found.userId
        ? (h) => jsonRequest('POST', '/accounts', { hold_balance: true, user_id: found.userId }, h)
        : undefined,
    ],
    [
      'getCardTransaction',
      ids.cardId && ids.cardTransactionId
        ? get(
            `/cards/${encodeURIComponent(ids.cardId)}/transactions/${encodeURIComponent(ids.cardTransactionId)}`,
          )
        : undefined,
    ],
    [
      'getPushToCardPayment',
      ids.pushToCardId ? get(`/payments/card/${encodeURIComponent(ids.pushToCardId)}`) : undefined,
    ],
    ['getVirtualCard', ids.cardId ? get(`/cards/virtual/${encodeURIComponent(ids.cardId)}`) : undefined],
    ['listUsers', get('/users')],
    ['getP2pStatus', found.userId ? get(`/p2p/status/${encodeURIComponent(found.userId)}`) : undefined],
  ];
  return requests.flatMap(([name, make]) => (make ? [[name, make] as [string, typeof make]] : []));
}

/**
 * Which scope each operation needs: every operation with a token of each scope alone. And which
 * operations need a token at all: each without one (the user list was asked without one already).
 */
export async function teachScopes(teacher: Teacher): Promise<void> {
  const requests = operationRequests(teacher);
  const scopes = teacher.allScopes.split(',');
  if (scopes.length > 1)
    for (const scope of scopes)
      for (const [operation, request] of requests) {
        const token = await teacher.scoped(scope, `a token of scope ${scope} alone`);
        if (token === undefined) break;
        await teacher.send(
          `whether ${operation} takes a token of scope ${scope} alone`,
          request(bearer(token)),
        );
      }
  for (const [operation, request] of requests)
    if (operation !== 'listUsers')
      await teacher.send(`whether ${operation} needs a token, and the refusal without one`, request({}));
}
