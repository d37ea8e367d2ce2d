import type { MockContext } from '../context.ts';
import { okReply as ok, okListReply } from '../envelope.ts';
import { MockHttpError } from '../http-types.ts';
import { isoTimestamp } from '../time.ts';
import type { OperationHandler } from './handler.ts';
import { said, shaped } from './learned-shape.ts';

function unknown(name: string, value: string, what: string): never {
  throw new MockHttpError(
    400,
    `Invalid request: ${name} ${value} names no ${what}`,
    undefined,
    'unknown-id-in-path',
  );
}

/** GET /cards/virtual/{card_id}. */
export const getVirtualCard: OperationHandler = (context, { params }) => {
  const card =
    context.store.view.cards.get(params.card_id ?? '') ??
    unknown('card_id', params.card_id ?? '', 'virtual card');
  return ok(said(context, 'getVirtualCard', 'Virtual card found'), card);
};

/** GET /cards/{card_id}/transactions/{transaction_id}: the transaction must belong to the card. */
export const getCardTransaction: OperationHandler = (context, { params }) => {
  const cardId = params.card_id ?? '';
  const transactionId = params.transaction_id ?? '';
  if (!context.store.view.cards.has(cardId)) unknown('card_id', cardId, 'virtual card');
  const transaction = context.store.view.cardTransactions.get(transactionId);
  if (!transaction || transaction.card_id !== cardId)
    unknown('transaction_id', transactionId, `transaction of card ${cardId}`);
  return ok(said(context, 'getCardTransaction', 'Card transaction found'), transaction);
};

/** GET /payments/card/{transaction_id}. */
export const getPushToCardPayment: OperationHandler = (context, { params }) => {
  const id = params.transaction_id ?? '';
  const payment =
    context.store.view.pushToCard.get(id) ?? unknown('transaction_id', id, 'push-to-card payment');
  return ok(said(context, 'getPushToCardPayment', 'Push-to-card payment found'), payment.record);
};

/** A whole number from the query, or the fallback when absent (a learned paging is validated here). */
function whole(query: URLSearchParams, name: string, fallback: number): number {
  const text = query.get(name);
  if (text === null) return fallback;
  if (!/^[0-9]{1,9}$/.test(text))
    throw new MockHttpError(400, `Invalid request: query parameter ${name} must be a whole number`);
  return Number(text);
}

/**
 * GET /users: pacu's paging (`page` from 1, `per_page`, already validated by Prism), or the paging a
 * recording showed (its names, first page and size); a page past the last one is empty.
 */
export const listUsers: OperationHandler = (context, { request, params }) => {
  const { paging } = context.behaviour;
  const size = Math.max(1, whole(request.query, paging.size, paging.defaultSize));
  const position = whole(request.query, paging.position, paging.style === 'page' ? paging.first : 0);
  const start = paging.style === 'page' ? (position - paging.first) * size : position;
  const page = paging.style === 'page' ? position : Math.floor(position / size) + paging.first;
  const { users } = context.store.view;
  const fields = { page, total_count: users.length, total_pages: Math.ceil(users.length / size) };
  const message = said(context, 'listUsers', 'Users listed');
  const items = users.slice(Math.max(0, start), Math.max(0, start) + size);
  if (!context.behaviour.plans.listUsers)
    return okListReply(message, items, fields, (user) => context.store.rendered(user));
  const asked = { ...Object.fromEntries(request.query), ...params };
  return ok(message, shaped(context, 'listUsers', { items, ...fields }, asked));
};

function notifyP2pValidated(context: MockContext, userId: string, email: string, clientId?: string): void {
  if (!context.store.markP2pNotified(userId)) return;
  context.webhooks.emit(
    'p2p.validated',
    {
      type: 'p2p.validated',
      timestamp: isoTimestamp(context.clock.now()),
      data: { user_id: userId, p2p_id: email, status: 'VALIDATED' },
    },
    clientId,
  );
}

const P2P_MESSAGE = 'The status of the validation request is delivered through a webhook';

/** GET /p2p/status/{user_id}: VALIDATED, with the promised p2p.validated webhook (once per user). */
export const getP2pStatus: OperationHandler = (context, { params, token }) => {
  const userId = params.user_id ?? '';
  const user = context.store.view.usersById.get(userId) ?? unknown('user_id', userId, 'user');
  notifyP2pValidated(context, userId, user.email, token?.clientId);
  const recorded = context.behaviour.p2p.get(userId);
  if (recorded) return ok(said(context, 'getP2pStatus', P2P_MESSAGE), { ...recorded });
  return ok(
    said(context, 'getP2pStatus', P2P_MESSAGE),
    shaped(context, 'getP2pStatus', { p2p_id: user.email, status: 'VALIDATED' }, { ...params }),
  );
};
