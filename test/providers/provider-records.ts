import { randomUUID } from 'node:crypto';

/** Seeded records of a test provider: one user, one card with a transaction, one push-to-card payment. */
export function seedRecords(newId: (prefix: string) => string) {
  const userId = newId('usr');
  const cardId = newId('card');
  const user = {
    user_id: userId,
    email: 'ana.ruiz@example.com',
    firstname: 'Ana',
    lastname: 'Ruiz',
    telephone: '+14155550100',
  };
  const card = {
    card_id: cardId,
    card_name: 'Travel',
    card_brand: 'VISA',
    card_type: 'VIRTUAL',
    card_status: 'ACTIVE',
    card_balance: 120.5,
    currency: 'USD',
    cvv: '123',
    expiration: '09/29',
    first_six: '411111',
    last_four: '1111',
  };
  const cardTransaction = {
    transaction_id: newId('ctx'),
    card_id: cardId,
    amount: 12.34,
    currency: 'USD',
    description: 'Coffee',
    merchant_name: 'Blue Fern Cafe',
    transaction_date: '2024-06-01T10:00:00Z',
    transaction_status: 'successful',
    transaction_type: 'PURCHASE',
  };
  return { user, card, cardTransaction, merchantAccountId: newId('acct') };
}

export const uuidIds = (): ((prefix: string) => string) => () => randomUUID();

export function prefixedIds(): (prefix: string) => string {
  let counter = 0;
  return (prefix) => `${prefix}_${(++counter).toString(16).padStart(12, '0')}`;
}

/** How deep a JSON value nests (the `pacu` style refuses bodies deeper than the decided limit). */
export function depthOf(value: unknown): number {
  if (value === null || typeof value !== 'object') return 0;
  return 1 + Math.max(0, ...Object.values(value).map(depthOf));
}
