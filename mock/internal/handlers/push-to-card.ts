import { compileSchema } from '../../../spec/index.ts';
import type { PushToCardInput } from '../../types.ts';
import type { MockContext } from '../context.ts';
import { MockHttpError } from '../http-types.ts';
import { lifecycleFor } from '../lifecycle.ts';
import type { StoredPushToCard } from '../state.ts';
import { after, type Maybe } from '../store/maybe.ts';

/** All but the first six and last four digits masked with `*`, as the spec decides. */
export function maskCardNumber(cardNumber: string): string {
  return `${cardNumber.slice(0, 6)}${'*'.repeat(cardNumber.length - 10)}${cardNumber.slice(-4)}`;
}

/** Create a push-to-card payment that follows the scenario like any other payment. */
export function createPushToCard(context: MockContext, input: PushToCardInput): Maybe<StoredPushToCard> {
  const amountIssues = compileSchema(context.spec.schema('Amount'))(input.amount);
  if (amountIssues.length > 0) {
    throw new MockHttpError(400, `amount ${amountIssues.map((issue) => issue.message).join(', ')}`);
  }
  const cardNumber = input.card_number ?? '4111111111111111';
  if (!/^[0-9]{12,19}$/.test(cardNumber)) throw new MockHttpError(400, 'card_number must be 12 to 19 digits');
  if (input.description !== undefined && typeof input.description !== 'string') {
    throw new MockHttpError(400, 'description must be a string');
  }
  const now = context.clock.now();
  const stored: StoredPushToCard = {
    record: {
      transaction_id: context.behaviour.newId('ptc'),
      amount: input.amount,
      card_number: maskCardNumber(cardNumber),
      description: input.description ?? '',
      transaction_date: context.behaviour.stamp(now),
      transaction_status: 'processing',
    },
  };
  const lifecycle = lifecycleFor(
    context.store.scenario(),
    { kind: 'push_to_card', amount: input.amount },
    now,
  );
  if (lifecycle) stored.lifecycle = lifecycle;
  return after(context.store.records.addPushToCard(stored), stored);
}
