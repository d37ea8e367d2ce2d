import { randomUUID } from 'node:crypto';
import type { Knobs } from './knobs.ts';

/** Ids in the provider's own format. */
export function idMaker(format: Knobs['idFormat']): (kind: string) => string {
  let counter = 0;
  return (kind) => {
    counter += 1;
    if (format === 'uuid') return randomUUID();
    if (format === 'numeric') return String(7_000_000_000 + counter * 7919);
    return `${kind}_${counter.toString(16).padStart(12, '0')}`;
  };
}

/** An instant written in the provider's UTC form. */
export function timestampWriter(form: Knobs['timestampForm']): (ms: number) => string {
  return (ms) => {
    const iso = new Date(ms).toISOString();
    if (form === 'milliseconds') return iso;
    const seconds = iso.replace(/\.\d+Z$/, 'Z');
    return form === '+00:00' ? seconds.replace(/Z$/, '+00:00') : seconds;
  };
}

export interface User {
  readonly user_id: string;
  readonly email: string;
  readonly firstname: string;
  readonly lastname: string;
  readonly telephone: string;
}

const PEOPLE = [
  ['Ana', 'Ruiz'],
  ['Li', 'Wei'],
  ['Sam', 'Okafor'],
  ['Maya', 'Berg'],
  ['Tom', 'Silva'],
] as const;

/** The records no operation creates: users, a card with a transaction, a push-to-card payment. */
export function seedRecords(knobs: Knobs, newId: (kind: string) => string, stamp: (ms: number) => string) {
  const count = knobs.users === 'several' ? PEOPLE.length : 1;
  const users: User[] = PEOPLE.slice(0, count).map(([first, last], index) => ({
    user_id: newId('usr'),
    email: `${first.toLowerCase()}.${last.toLowerCase()}@example.com`,
    firstname: first,
    lastname: last,
    telephone: `+1415555010${index}`,
  }));
  const upper = knobs.cardValues === 'upper-case';
  const cardId = newId('card');
  const card = {
    card_id: cardId,
    card_name: 'Travel',
    card_brand: upper ? 'VISA' : 'visa',
    card_type: upper ? 'VIRTUAL' : 'virtual',
    card_status: upper ? 'ACTIVE' : 'active',
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
    transaction_date:
      knobs.seededTimestamps === 'milliseconds'
        ? new Date(Date.UTC(2024, 5, 1, 10, 0, 0, 125)).toISOString()
        : stamp(Date.UTC(2024, 5, 1, 10)),
    transaction_status: upper ? 'SETTLED' : 'settled',
    transaction_type: upper ? 'PURCHASE' : 'purchase',
  };
  const pushToCard = {
    transaction_id: newId('ptc'),
    amount: 50,
    card_number: '411111******1111',
    description: 'Driver payout',
    transaction_date: stamp(Date.UTC(2024, 5, 1, 9)),
    transaction_status: knobs.pushToCardStatus,
  };
  return { users, card, cardTransaction, pushToCard, merchantAccountId: newId('acct') };
}

export type SeededRecords = ReturnType<typeof seedRecords>;
