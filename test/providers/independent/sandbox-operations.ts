import { randomBytes, randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { MutantName } from './mutants.ts';
import { type Responder, timestamp } from './sandbox-http.ts';
import type { SandboxStore } from './sandbox-store.ts';
import {
  accountNumber,
  amount,
  boolean,
  type Check,
  email,
  type FieldRule,
  firstProblem,
  oneOf,
  routingNumber,
  text,
} from './sandbox-validation.ts';

/** Optional free text: may be empty, unlike names and references. */
const note: Check = (value) =>
  typeof value !== 'string'
    ? 'must be a string'
    : value.length > 255
      ? 'must be at most 255 characters'
      : undefined;

const TRANSFER_FIELDS = [
  'account_id',
  'account_number',
  'account_type',
  'amount',
  'routing_number',
  'transfer_type',
  'reference',
  'recipient_email',
  'recipient_name',
  'description',
] as const;

const DEFAULT_PAGE_SIZE = 10;
const MAX_PAGE_SIZE = 100;

export interface OperationSettings {
  readonly mutant: MutantName | undefined;
  readonly settleAfterMs: number;
  readonly walletRequiresEveryField: boolean;
  readonly firstCustomerPending: boolean;
  readonly amountCeiling: number;
  readonly railLimits: boolean;
}

/**
 * Each rail's own limits, where "amount bounds … size limits … not shown" leaves them to the bank:
 * a WIRE moves at least 1.00 and names its beneficiary in 35 characters (a Fedwire field); an ACH
 * moves at most 25,000.00 and names its receiver in 22 (a NACHA entry field).
 */
function railProblem(body: Record<string, unknown>): string | undefined {
  const name = typeof body.recipient_name === 'string' ? body.recipient_name : '';
  const money = typeof body.amount === 'number' ? body.amount : 0;
  if (body.transfer_type === 'WIRE') {
    if (money < 1) return 'amount must be at least 1.00 for a WIRE';
    if (name.length > 35) return 'recipient_name must be at most 35 characters for a WIRE';
  }
  if (body.transfer_type === 'ACH') {
    if (money > 25_000) return 'amount must not exceed 25000.00 for an ACH';
    if (name.length > 22) return 'recipient_name must be at most 22 characters for an ACH';
  }
  return undefined;
}

/** The eight operations after the token: each gets a parsed body or path ids and answers itself. */
export class SandboxOperations {
  constructor(
    private readonly store: SandboxStore,
    private readonly respond: Responder,
    private readonly settings: OperationSettings,
  ) {}

  private get mutant(): MutantName | undefined {
    return this.settings.mutant;
  }

  #status(settled: boolean): string {
    const status = settled ? 'successful' : 'processing';
    return this.mutant === 'transfer-status-uppercase' ? status.toUpperCase() : status;
  }

  #refuse(res: ServerResponse, body: Record<string, unknown>, rules: Record<string, FieldRule>): boolean {
    const problem = firstProblem(body, rules);
    if (problem === undefined) return false;
    const status = problem.kind === 'missing' && this.mutant === 'missing-field-422' ? 422 : 400;
    this.respond.fail(res, status, problem.message);
    return true;
  }

  /** The account funds come from: the merchant's own, or one of its customers' that holds a balance. */
  #debitable(res: ServerResponse, accountId: string): boolean {
    if (accountId === this.store.merchantAccountId) return true;
    const account = this.store.accounts.get(accountId);
    if (account === undefined) {
      this.respond.fail(res, 400, `Unknown account_id ${accountId}`);
      return false;
    }
    if (!account.hold_balance) {
      this.respond.fail(
        res,
        400,
        `Account ${accountId} does not hold a balance: pass the merchant's US account id instead`,
      );
      return false;
    }
    return true;
  }

  usdTransfer(res: ServerResponse, body: Record<string, unknown>): void {
    const rules: Record<(typeof TRANSFER_FIELDS)[number], FieldRule> = {
      account_id: { required: true, check: text(64) },
      account_number: { required: true, check: accountNumber },
      account_type: { required: true, check: oneOf(['CHECKING', 'SAVINGS', 'BUSINESS']) },
      amount: { required: true, check: amount(this.settings.amountCeiling) },
      routing_number: { required: this.mutant !== 'routing-number-optional', check: routingNumber },
      transfer_type: { required: true, check: oneOf(['ACH', 'WIRE']) },
      reference: { required: true, check: text(64) },
      recipient_email: { required: true, check: email },
      recipient_name: { required: true, check: text(140) },
      description: { required: false, check: note },
    };
    if (this.#refuse(res, body, rules)) return;
    const rail = this.settings.railLimits ? railProblem(body) : undefined;
    if (rail !== undefined) {
      this.respond.fail(res, 400, rail);
      return;
    }
    if (!this.#debitable(res, body.account_id as string)) return;
    const request = Object.fromEntries(
      TRANSFER_FIELDS.filter((f) => body[f] !== undefined).map((f) => [f, body[f]]),
    );
    const fingerprint = JSON.stringify(request);
    const reference = body.reference as string;
    const earlier = this.store.transfersByReference.get(reference);
    if (earlier !== undefined && this.mutant !== 'replay-new-transaction') {
      if (earlier.fingerprint === fingerprint) {
        const current = {
          ...earlier.record,
          transaction_status: this.#status(Date.now() >= earlier.settlesAt),
        };
        this.respond.ok(res, 'A transfer with this reference already exists; returning it', current);
      } else {
        this.respond.fail(res, 409, `Reference ${reference} was already used for a different transfer`);
      }
      return;
    }
    const record = {
      ...request,
      reference: this.mutant === 'echo-reference-prefixed' ? `MRC-${reference}` : reference,
      transaction_date: timestamp(),
      transaction_id: randomUUID(),
      transaction_status: this.#status(false),
    };
    const settlesAt = Date.now() + this.settings.settleAfterMs;
    this.store.transfersByReference.set(reference, { fingerprint, record, settlesAt });
    this.respond.ok(res, 'Transfer accepted for processing', record);
  }

  walletPayout(res: ServerResponse, body: Record<string, unknown>): void {
    const rules: Record<string, FieldRule> = {
      account_id: { required: true, check: text(64) },
      amount: { required: true, check: amount(this.settings.amountCeiling) },
      wallet_id: { required: true, check: email },
      recipient_name: { required: this.settings.walletRequiresEveryField, check: text(140) },
      description: { required: this.settings.walletRequiresEveryField, check: note },
    };
    if (this.#refuse(res, body, rules) || !this.#debitable(res, body.account_id as string)) return;
    const echoed = ['amount', 'description', 'wallet_id', 'recipient_name'].filter(
      (f) => body[f] !== undefined,
    );
    const record = {
      ...Object.fromEntries(echoed.map((f) => [f, body[f]])),
      transaction_date: timestamp(),
      transaction_id: `wpo_${randomBytes(12).toString('hex')}`,
      transaction_status: 'processing',
    };
    this.respond.ok(res, 'Wallet payout accepted for processing', record);
  }

  createAccount(res: ServerResponse, body: Record<string, unknown>): void {
    const rules: Record<string, FieldRule> = {
      user_id: { required: true, check: text(64) },
      hold_balance: { required: true, check: boolean },
    };
    if (this.#refuse(res, body, rules)) return;
    const userId = body.user_id as string;
    if (this.store.user(userId) === undefined) {
      this.respond.fail(res, 400, `Unknown user_id ${userId}`);
      return;
    }
    const status = this.mutant === 'account-status-pending' ? 'PENDING_VERIFICATION' : 'ACTIVE';
    const balance = this.mutant === 'account-balance-credited' ? 1000 : 0;
    const rails = this.mutant === 'numbers-without-rtp' ? ['ACH', 'WIRE'] : undefined;
    const account = this.store.createAccount(userId, body.hold_balance as boolean, status, balance, rails);
    this.respond.ok(res, 'US account created', account.record, {
      status: this.mutant === 'account-created-201' ? 201 : 200,
    });
  }

  cardTransaction(res: ServerResponse, cardId: string, transactionId: string): void {
    const record = this.store.cardTransactions.get(transactionId);
    if (!this.store.cards.has(cardId) || record === undefined || record.card_id !== cardId) {
      this.respond.fail(res, 404, `No transaction ${transactionId} on virtual card ${cardId}`);
      return;
    }
    this.respond.ok(res, 'Card transaction retrieved', record);
  }

  pushToCard(res: ServerResponse, transactionId: string): void {
    const record = this.store.pushToCard.get(transactionId);
    if (record === undefined) this.respond.fail(res, 404, `No push-to-card payment ${transactionId}`);
    else this.respond.ok(res, 'Push-to-card status retrieved', record);
  }

  virtualCard(res: ServerResponse, cardId: string): void {
    const record = this.store.cards.get(cardId);
    if (record === undefined) this.respond.fail(res, 404, `No virtual card ${cardId}`);
    else this.respond.ok(res, 'Virtual card retrieved', record);
  }

  /** `page` (from 1) and `page_size` (1-100, default 10); a page past the end is empty. */
  users(res: ServerResponse, query: URLSearchParams): void {
    const page = positiveInteger(query.get('page'), 1);
    const pageSize = positiveInteger(query.get('page_size'), DEFAULT_PAGE_SIZE);
    if (page === undefined || pageSize === undefined || pageSize > MAX_PAGE_SIZE) {
      this.respond.fail(res, 400, `page must be an integer from 1 and page_size from 1 to ${MAX_PAGE_SIZE}`);
      return;
    }
    const all = this.store.users;
    const items = all.slice((page - 1) * pageSize, page * pageSize);
    const data: Record<string, unknown> = { items, page, total_count: all.length };
    if (this.mutant !== 'users-without-total-pages') data.total_pages = Math.ceil(all.length / pageSize);
    this.respond.ok(res, 'Users retrieved', data);
  }

  p2pStatus(res: ServerResponse, userId: string): void {
    const index = this.store.users.findIndex((user) => user.user_id === userId);
    const user = this.store.users[index];
    if (user === undefined) {
      this.respond.fail(res, 404, `No user ${userId}`);
      return;
    }
    // Every fifth customer's identifier is still under review at the network.
    const pending = index % 5 === 4 || (index === 0 && this.settings.firstCustomerPending);
    const status = pending ? 'PENDING' : 'VALIDATED';
    const p2pId = this.mutant === 'p2p-id-not-email' ? user.user_id : user.email;
    this.respond.ok(res, 'The status of the validation request is delivered through a webhook.', {
      p2p_id: p2pId,
      status,
    });
  }
}

function positiveInteger(value: string | null, fallback: number): number | undefined {
  if (value === null) return fallback;
  if (!/^\d+$/.test(value)) return undefined;
  const n = Number(value);
  return n >= 1 && Number.isSafeInteger(n) ? n : undefined;
}
