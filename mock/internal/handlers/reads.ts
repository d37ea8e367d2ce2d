import type { MockContext } from '../context.ts';
import { okReply as ok, okListReply } from '../envelope.ts';
import { MockHttpError } from '../http-types.ts';
import { usersPage } from '../request-reads.ts';
import { after, type Maybe } from '../store/maybe.ts';
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
export const getVirtualCard: OperationHandler = (context, { params, found }) => {
  const card = found.card ?? unknown('card_id', params.card_id ?? '', 'virtual card');
  return ok(said(context, 'getVirtualCard', 'Virtual card found'), card);
};

/** GET /cards/{card_id}/transactions/{transaction_id}: the transaction must belong to the card. */
export const getCardTransaction: OperationHandler = (context, { params, found }) => {
  const cardId = params.card_id ?? '';
  const transactionId = params.transaction_id ?? '';
  if (!found.card) unknown('card_id', cardId, 'virtual card');
  const transaction = found.cardTransaction;
  if (!transaction || transaction.card_id !== cardId)
    unknown('transaction_id', transactionId, `transaction of card ${cardId}`);
  return ok(said(context, 'getCardTransaction', 'Card transaction found'), transaction);
};

/** GET /payments/card/{transaction_id}. */
export const getPushToCardPayment: OperationHandler = (context, { params, found }) => {
  const payment =
    found.pushToCard ?? unknown('transaction_id', params.transaction_id ?? '', 'push-to-card payment');
  return ok(said(context, 'getPushToCardPayment', 'Push-to-card payment found'), payment.record);
};

/**
 * GET /users: pacu's paging (`page` from 1, `per_page`, already validated by Prism), or the paging a
 * recording showed (its names, first page and size); a page past the last one is empty.
 */
export const listUsers: OperationHandler = (context, { request, params, found }) => {
  const { size, page } = usersPage(context, request.query);
  const { items, total } = found.users ?? { items: [], total: 0 };
  const fields = { page, total_count: total, total_pages: Math.ceil(total / size) };
  const message = said(context, 'listUsers', 'Users listed');
  if (!context.behaviour.plans.listUsers)
    return okListReply(message, items, fields, (user) => context.store.records.rendered(user));
  const asked = { ...Object.fromEntries(request.query), ...params };
  return ok(message, shaped(context, 'listUsers', { items: [...items], ...fields }, asked));
};

/** The p2p.validated event, the first time a user's status is read (decision 013). */
function notifyP2pValidated(
  context: MockContext,
  userId: string,
  email: string,
  clientId?: string,
): Maybe<void> {
  const payload = {
    type: 'p2p.validated',
    timestamp: isoTimestamp(context.clock.now()),
    data: { user_id: userId, p2p_id: email, status: 'VALIDATED' },
  };
  return after(
    context.store.records.markP2pNotified(userId, { type: 'p2p.validated', payload, clientId }),
    undefined,
  );
}

const P2P_MESSAGE = 'The status of the validation request is delivered through a webhook';

/** GET /p2p/status/{user_id}: VALIDATED, with the promised p2p.validated webhook (once per user). */
export const getP2pStatus: OperationHandler = (context, { params, token, found }) => {
  const userId = params.user_id ?? '';
  const user = found.user ?? unknown('user_id', userId, 'user');
  const notified = notifyP2pValidated(context, userId, user.email, token?.clientId);
  const recorded = context.behaviour.p2p.get(userId);
  if (recorded) return after(notified, ok(said(context, 'getP2pStatus', P2P_MESSAGE), { ...recorded }));
  return after(
    notified,
    ok(
      said(context, 'getP2pStatus', P2P_MESSAGE),
      shaped(context, 'getP2pStatus', { p2p_id: user.email, status: 'VALIDATED' }, { ...params }),
    ),
  );
};
