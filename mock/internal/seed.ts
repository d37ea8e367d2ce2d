import { type CardTransaction, type User, type VirtualCard, withAbaCheckDigit } from '../../spec/index.ts';
import { digits, pick, type Random, seededHex, seededRandom } from './random.ts';
import { addUser, emptyState, type MockState, type StoredAccount } from './state.ts';
import { isoTimestamp } from './time.ts';

const FIRST_NAMES = [
  'Ana',
  'Li',
  'Sam',
  'Noor',
  'Jon',
  'Ines',
  'Kofi',
  'Mara',
  'Ravi',
  'Yuki',
  'Omar',
  'Lea',
];
const LAST_NAMES = ['Ruiz', 'Wei', 'Lee', 'Haddad', 'Berg', 'Costa', 'Mensah', 'Novak', 'Iyer', 'Sato'];
const MERCHANTS = [
  'Paper Street Supply Co',
  'Blue Fern Cafe',
  'Northwind Travel',
  'Acme Cloud',
  'Kite Books',
];
/** Seed data is dated from here, so the same seed gives byte-identical records on every run. */
const SEED_EPOCH = Date.UTC(2024, 5, 1);
/** Enough users for three pages at the default page size. */
export const SEEDED_USER_COUNT = 45;

/** A routing number that passes the ABA checksum, on a Federal Reserve district prefix. */
export function seededRoutingNumber(random: Random): string {
  return withAbaCheckDigit(`0${1 + Math.floor(random() * 9)}${digits(random, 6)}`);
}

/** One account number and routing number per rail; ACH and RTP share the account's ACH numbers. */
export function railNumbers(random: Random): StoredAccount['record']['numbers'] {
  const accountNumber = `91${digits(random, 10)}`;
  const ach = { account_number: accountNumber, routing_number: seededRoutingNumber(random) };
  return {
    ACH: ach,
    RTP: { ...ach },
    WIRE: { account_number: accountNumber, routing_number: seededRoutingNumber(random) },
  };
}

function seedUsers(state: MockState, random: Random): void {
  for (let index = 0; index < SEEDED_USER_COUNT; index++) {
    const firstname = pick(random, FIRST_NAMES);
    const lastname = pick(random, LAST_NAMES);
    const user: User = {
      user_id: `usr_${seededHex(random, 16)}`,
      email: `${firstname}.${lastname}.${index + 1}@example.com`.toLowerCase(),
      firstname,
      lastname,
      telephone: `+1415555${digits(random, 4)}`,
    };
    addUser(state, user);
  }
}

function seedCards(state: MockState, random: Random): void {
  const statuses: VirtualCard['card_status'][] = ['ACTIVE', 'ACTIVE', 'FROZEN'];
  for (const [index, status] of statuses.entries()) {
    const card: VirtualCard = {
      card_id: `card_${seededHex(random, 16)}`,
      card_name: ['Marketing team', 'Travel', 'Cloud services'][index] ?? 'Card',
      card_brand: index === 2 ? 'MASTERCARD' : 'VISA',
      card_type: 'VIRTUAL',
      card_status: status,
      card_balance: Math.round(random() * 500000) / 100,
      currency: 'USD',
      cvv: digits(random, 3),
      expiration: `${String(1 + Math.floor(random() * 12)).padStart(2, '0')}/${28 + Math.floor(random() * 3)}`,
      first_six: index === 2 ? '520000' : '411111',
      last_four: digits(random, 4),
    };
    state.cards.set(card.card_id, card);
    for (let count = 0; count < 3; count++) {
      const transaction: CardTransaction = {
        transaction_id: `ctx_${seededHex(random, 16)}`,
        card_id: card.card_id,
        amount: Math.round(1 + random() * 49900) / 100,
        currency: 'USD',
        description: pick(random, ['Office supplies', 'Team lunch', 'Hosting', 'Flights']),
        merchant_name: pick(random, MERCHANTS),
        transaction_date: isoTimestamp(SEED_EPOCH + Math.floor(random() * 86_400_000 * 10)),
        transaction_status: count === 2 ? 'processing' : 'successful',
        transaction_type: count === 1 ? 'REFUND' : 'PURCHASE',
      };
      state.cardTransactions.set(transaction.transaction_id, transaction);
    }
  }
}

function seedPushToCard(state: MockState, random: Random): string[] {
  const ids: string[] = [];
  for (const [amount, status] of [
    [150, 'successful'],
    [13.13, 'failed'],
  ] as const) {
    const id = `ptc_${seededHex(random, 16)}`;
    state.pushToCard.set(id, {
      record: {
        transaction_id: id,
        amount,
        card_number: `411111******${digits(random, 4)}`,
        description: 'Driver payout week 23',
        transaction_date: isoTimestamp(SEED_EPOCH + Math.floor(random() * 86_400_000)),
        transaction_status: status,
      },
    });
    ids.push(id);
  }
  return ids;
}

/**
 * The state the mock starts from (and `reset` returns to): the same seed gives the same users,
 * cards, card transactions, push-to-card payments and merchant account, ids included.
 */
export function seedState(seed: number): MockState {
  const random = seededRandom(seed);
  const merchantAccountId = `acct_${seededHex(random, 16)}`;
  const state = emptyState({
    cardId: '',
    cardTransactionId: '',
    pushToCardId: '',
    merchantAccountId,
    userId: '',
  });
  seedUsers(state, random);
  seedCards(state, random);
  const [pushToCardId = ''] = seedPushToCard(state, random);
  const firstUser = state.users[0];
  state.accounts.set(merchantAccountId, {
    record: {
      account_id: merchantAccountId,
      account_status: 'ACTIVE',
      balance: 250000,
      numbers: railNumbers(random),
    },
    userId: firstUser?.user_id ?? '',
    holdBalance: true,
  });
  const firstCard = [...state.cards.values()][0];
  const firstTransaction = [...state.cardTransactions.values()].find((t) => t.card_id === firstCard?.card_id);
  state.seeded = {
    cardId: firstCard?.card_id ?? '',
    cardTransactionId: firstTransaction?.transaction_id ?? '',
    pushToCardId,
    merchantAccountId,
    userId: firstUser?.user_id ?? '',
  };
  return state;
}
