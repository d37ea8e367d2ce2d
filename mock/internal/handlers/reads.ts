import type { MockContext } from '../context.ts';
import { okReply as ok, okListReply } from '../envelope.ts';
import { MockHttpError } from '../http-types.ts';
import { isoTimestamp } from '../time.ts';
import type { OperationHandler } from './handler.ts';

function unknown(name: string, value: string, what: string): never {
  throw new MockHttpError(400, `Invalid request: ${name} ${value} names no ${what}`);
}

/** GET /cards/virtual/{card_id}. */
export const getVirtualCard: OperationHandler = (context, { params }) => {
  const card =
    context.store.view.cards.get(params.card_id ?? '') ??
    unknown('card_id', params.card_id ?? '', 'virtual card');
  return ok('Virtual card found', card);
};

/** GET /cards/{card_id}/transactions/{transaction_id}: the transaction must belong to the card. */
export const getCardTransaction: OperationHandler = (context, { params }) => {
  const cardId = params.card_id ?? '';
  const transactionId = params.transaction_id ?? '';
  if (!context.store.view.cards.has(cardId)) unknown('card_id', cardId, 'virtual card');
  const transaction = context.store.view.cardTransactions.get(transactionId);
  if (!transaction || transaction.card_id !== cardId)
    unknown('transaction_id', transactionId, `transaction of card ${cardId}`);
  return ok('Card transaction found', transaction);
};

/** GET /payments/card/{transaction_id}. */
export const getPushToCardPayment: OperationHandler = (context, { params }) => {
  const id = params.transaction_id ?? '';
  const payment =
    context.store.view.pushToCard.get(id) ?? unknown('transaction_id', id, 'push-to-card payment');
  return ok('Push-to-card payment found', payment.record);
};

/** GET /users: pages from 1; a page past the last one is empty. Query already validated by Prism. */
export const listUsers: OperationHandler = (context, { request }) => {
  const page = Number(request.query.get('page') ?? 1);
  const perPage = Number(request.query.get('per_page') ?? 20);
  const { users } = context.store.view;
  const start = (page - 1) * perPage;
  return okListReply(
    'Users listed',
    users.slice(start, start + perPage),
    { page, total_count: users.length, total_pages: Math.ceil(users.length / perPage) },
    (user) => context.store.rendered(user),
  );
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

/** GET /p2p/status/{user_id}: VALIDATED, with the promised p2p.validated webhook (once per user). */
export const getP2pStatus: OperationHandler = (context, { params, token }) => {
  const userId = params.user_id ?? '';
  const user = context.store.view.usersById.get(userId) ?? unknown('user_id', userId, 'user');
  notifyP2pValidated(context, userId, user.email, token?.clientId);
  return ok('The status of the validation request is delivered through a webhook', {
    p2p_id: user.email,
    status: 'VALIDATED',
  });
};
