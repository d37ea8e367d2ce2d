import type { OperationId } from '../spec/index.ts';
import { type ApiRequest, bearer, jsonRequest } from '../suites/index.ts';
import { CENTRAL_AMOUNT, pathOf, payoutBody, transferBody } from './teaching-bodies.ts';
import type { Teacher } from './teaching-context.ts';

type Make = (headers: Record<string, string>) => ApiRequest;

/** Each operation but the token's, as the happy path sends it, where the session has what it needs. */
export function operationRequests(teacher: Teacher): Array<[OperationId, Make]> {
  const { found, ids } = teacher;
  const get = (id: OperationId, params: Record<string, string | undefined>): Make | undefined =>
    Object.values(params).every((value) => value !== undefined)
      ? (headers) => ({ method: 'GET', path: pathOf(id, params as Record<string, string>), headers })
      : undefined;
  const post = (id: OperationId, body: (() => unknown) | undefined): Make | undefined =>
    body ? (headers) => jsonRequest('POST', pathOf(id), body(), headers) : undefined;
  const { accountId, userId } = found;
  const requests: Array<[OperationId, Make | undefined]> = [
    [
      'usdTransfer',
      post('usdTransfer', accountId ? () => transferBody(teacher, 'ACH', CENTRAL_AMOUNT) : undefined),
    ],
    ['walletPayout', post('walletPayout', accountId ? () => payoutBody(teacher, 40) : undefined)],
    [
      'createAccount',
      post('createAccount', userId ? () => ({ hold_balance: true, user_id: userId }) : undefined),
    ],
    [
      'getCardTransaction',
      get('getCardTransaction', { card_id: ids.cardId, transaction_id: ids.cardTransactionId }),
    ],
    ['getPushToCardPayment', get('getPushToCardPayment', { transaction_id: ids.pushToCardId })],
    ['getVirtualCard', get('getVirtualCard', { card_id: ids.cardId })],
    ['listUsers', get('listUsers', {})],
    ['getP2pStatus', get('getP2pStatus', { user_id: userId })],
  ];
  return requests.flatMap(([id, make]) => (make ? [[id, make] as [OperationId, Make]] : []));
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
