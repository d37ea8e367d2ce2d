import { randomBytes, randomInt, randomUUID } from 'node:crypto';
import { timestamp } from './sandbox-http.ts';

export interface User {
  readonly user_id: string;
  readonly email: string;
  readonly firstname: string;
  readonly lastname: string;
  readonly telephone: string;
}

export interface Account {
  readonly account_id: string;
  readonly user_id: string;
  readonly hold_balance: boolean;
  readonly record: Record<string, unknown>;
}

export interface Transfer {
  /** The request fields that make a replay "the same request". */
  readonly fingerprint: string;
  readonly record: Record<string, unknown>;
  /** When the sandbox's simulated rail settles it (epoch ms). */
  readonly settlesAt: number;
}

/** Sandbox routing numbers per rail (real, checksum-valid ABA numbers of large US banks). */
export const RAIL_ROUTING_NUMBERS = { ACH: '021000021', RTP: '011000015', WIRE: '026009593' } as const;

const PEOPLE = [
  ['Avery', 'Nguyen'],
  ['Jordan', 'Patel'],
  ['Riley', 'Okafor'],
  ['Morgan', 'Schmidt'],
  ['Casey', 'Romero'],
  ['Taylor', 'Kim'],
  ['Quinn', 'Haddad'],
  ['Jamie', 'Novak'],
  ['Drew', 'Alvarez'],
  ['Parker', 'Lindqvist'],
  ['Rowan', 'Mensah'],
  ['Sage', 'Ito'],
] as const;

const hex = (bytes: number): string => randomBytes(bytes).toString('hex');
const digits = (count: number): string => Array.from({ length: count }, () => randomInt(10)).join('');

/** What the sandbox holds: seeded users and card records, and what the merchant creates. */
export class SandboxStore {
  readonly merchantAccountId = `acct_mrc_${hex(8)}`;
  readonly users: readonly User[] = PEOPLE.map(([firstname, lastname], i) => ({
    user_id: `usr_${hex(8)}`,
    email: `${firstname}.${lastname}@example.com`.toLowerCase(),
    firstname,
    lastname,
    telephone: `+1415555${String(100 + i).padStart(4, '0')}`,
  }));
  readonly accounts = new Map<string, Account>();
  readonly transfersByReference = new Map<string, Transfer>();
  readonly cards = new Map<string, Record<string, unknown>>();
  readonly cardTransactions = new Map<string, Record<string, unknown>>();
  readonly pushToCard = new Map<string, Record<string, unknown>>();
  readonly cardId: string;
  readonly cardTransactionId: string;
  readonly pushToCardId: string;

  constructor(cardAmountAsString: boolean, fourDigitYear: boolean) {
    this.cardId = `vc_${hex(10)}`;
    this.cards.set(this.cardId, {
      card_id: this.cardId,
      card_name: 'Sandbox Travel Card',
      card_brand: 'VISA',
      card_type: 'VIRTUAL',
      card_status: 'ACTIVE',
      card_balance: 250.75,
      currency: 'USD',
      cvv: '123',
      expiration: fourDigitYear ? '08/2029' : '08/29',
      first_six: '411111',
      last_four: '1111',
    });
    this.cardTransactionId = `ctx_${hex(10)}`;
    this.cardTransactions.set(this.cardTransactionId, {
      transaction_id: this.cardTransactionId,
      card_id: this.cardId,
      amount: cardAmountAsString ? '42.50' : 42.5,
      currency: 'USD',
      description: 'Hotel booking deposit',
      merchant_name: 'Harbor View Hotel',
      transaction_date: timestamp(new Date(Date.now() - 3_600_000)),
      transaction_status: 'processing',
      transaction_type: 'PURCHASE',
    });
    this.pushToCardId = randomUUID();
    this.pushToCard.set(this.pushToCardId, {
      transaction_id: this.pushToCardId,
      amount: 120,
      card_number: '411111******1111',
      description: 'Refund for order 1042',
      transaction_date: timestamp(new Date(Date.now() - 86_400_000)),
      transaction_status: 'successful',
    });
  }

  user(userId: string): User | undefined {
    return this.users.find((user) => user.user_id === userId);
  }

  createAccount(
    userId: string,
    holdBalance: boolean,
    status: string,
    balance: number,
    rails: readonly string[] = Object.keys(RAIL_ROUTING_NUMBERS),
  ): Account {
    const accountId = `acct_${hex(12)}`;
    const numbers = Object.fromEntries(
      Object.entries(RAIL_ROUTING_NUMBERS)
        .filter(([rail]) => rails.includes(rail))
        .map(([rail, routing]) => [rail, { account_number: digits(12), routing_number: routing }]),
    );
    const account: Account = {
      account_id: accountId,
      user_id: userId,
      hold_balance: holdBalance,
      record: {
        account_id: accountId,
        account_status: status,
        balance,
        currency: 'USD',
        hold_balance: holdBalance,
        user_id: userId,
        numbers,
        created_at: timestamp(),
      },
    };
    this.accounts.set(accountId, account);
    return account;
  }
}
