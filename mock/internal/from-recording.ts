import { type Har, type RoutedExchange, routeHar, SECRET_STAND_INS } from '../../http/index.ts';
import {
  type Account,
  type CardTransaction,
  compileSchema,
  type JSONSchema7,
  type OperationId,
  type P2pStatus,
  type PushToCardPayment,
  type SchemaCheck,
  type Spec,
  schemaForProfile,
  type UsdTransfer,
  type User,
  type VirtualCard,
  type WalletPayout,
} from '../../spec/index.ts';
import { fingerprint } from './handlers/payments.ts';
import { seedState } from './seed.ts';
import { addPayout, addTransfer, addUser, emptyState, type MockState, RECORDED_OWNER } from './state.ts';

/** What the sandbox answered, gathered from a recording in recorded order (first answer per id wins). */
interface Recorded {
  users: Map<string, User>;
  cards: Map<string, VirtualCard>;
  cardTransactions: Map<string, CardTransaction>;
  pushToCard: Map<string, PushToCardPayment>;
  p2p: Map<string, P2pStatus>;
  accounts: Map<string, { record: Account; userId: string; holdBalance: boolean }>;
  /** Accounts funds came from that the recording never created: the merchant's own. */
  sourceAccounts: string[];
  transfers: Map<string, { record: UsdTransfer; accountId: string; fingerprint: string }>;
  payouts: Map<string, { record: WalletPayout; accountId: string }>;
}

type Body = Record<string, unknown>;

const put = <T>(map: Map<string, T>, key: string, value: T): void => {
  if (!map.has(key)) map.set(key, value);
};

/** A recorded exchange, and why its answer cannot be taken (it breaks the documented view), if so. */
export interface CheckedExchange {
  readonly exchange: RoutedExchange;
  /** Set on a 200 answer that breaks the documented view: it contradicts the description. */
  readonly problem?: string;
}

/** Every exchange of a recording, its 200 answers checked against the documented view. */
export function checkRecording(spec: Spec, har: Har): CheckedExchange[] {
  const checks = new Map<OperationId, SchemaCheck>();
  const checkOf = (id: OperationId): SchemaCheck => {
    let check = checks.get(id);
    if (!check) {
      const schema = spec.operation(id).responses.get(200)?.schema as JSONSchema7;
      check = compileSchema(schemaForProfile(schema, 'documented'));
      checks.set(id, check);
    }
    return check;
  };
  return routeHar(spec, har).map((exchange) => {
    if (!exchange.operation || exchange.entry.response.status !== 200) return { exchange };
    const problem = answerProblem(checkOf(exchange.operation.id), exchange);
    return problem ? { exchange, problem } : { exchange };
  });
}

/** The success answers of a recording that keep to the documented view, in recorded order. */
function gather(checked: readonly CheckedExchange[]): Recorded {
  const recorded: Recorded = {
    users: new Map(),
    cards: new Map(),
    cardTransactions: new Map(),
    pushToCard: new Map(),
    p2p: new Map(),
    accounts: new Map(),
    sourceAccounts: [],
    transfers: new Map(),
    payouts: new Map(),
  };
  for (const { exchange, problem } of checked) {
    // An answer that broke off (`_error`) seeds nothing: its body is not the provider's whole record.
    if (
      !exchange.operation ||
      exchange.entry.response.status !== 200 ||
      exchange.error !== undefined ||
      problem
    )
      continue;
    take(recorded, exchange);
  }
  return recorded;
}

function answerProblem(check: SchemaCheck, exchange: RoutedExchange): string | undefined {
  if (exchange.responseJson === undefined) return 'was answered 200 with a body that is not JSON';
  const [issue] = check(exchange.responseJson);
  return issue
    ? `was answered with a body that breaks the documented ${exchange.operation?.id} response: ${issue.path || '(the body)'} ${issue.message}`
    : undefined;
}

/**
 * A recorded card whose CVV the recording removed (card data is masked by default, decision 166)
 * is served with a CVV of its own: three digits made from its id, the same at every start.
 */
function withCvv(card: VirtualCard): VirtualCard {
  if (card.cvv !== SECRET_STAND_INS.redacted) return card;
  let hash = 0;
  for (const char of card.card_id) hash = (hash * 31 + char.charCodeAt(0)) % 900;
  return { ...card, cvv: String(100 + hash) };
}

/** File one checked success answer under what it tells about the sandbox's records. */
function take(recorded: Recorded, exchange: RoutedExchange): void {
  const data = (exchange.responseJson as { data: unknown }).data as Body;
  const request = (exchange.requestJson ?? {}) as Body;
  const source = typeof request.account_id === 'string' ? request.account_id : undefined;
  switch (exchange.operation?.id) {
    case 'listUsers':
      for (const user of (data as { items: User[] }).items) put(recorded.users, user.user_id, user);
      break;
    case 'getVirtualCard':
      put(recorded.cards, (data as VirtualCard).card_id, withCvv(data as VirtualCard));
      break;
    case 'getCardTransaction':
      put(recorded.cardTransactions, (data as CardTransaction).transaction_id, data as CardTransaction);
      break;
    case 'getPushToCardPayment':
      put(recorded.pushToCard, (data as PushToCardPayment).transaction_id, data as PushToCardPayment);
      break;
    case 'getP2pStatus':
      put(recorded.p2p, exchange.params.user_id ?? '', data as P2pStatus);
      break;
    case 'createAccount':
      put(recorded.accounts, (data as Account).account_id, {
        record: data as Account,
        userId: String(request.user_id ?? ''),
        holdBalance: request.hold_balance !== false,
      });
      break;
    case 'usdTransfer':
      // A later answer to the same reference is the sandbox's idempotent replay of the first.
      put(recorded.transfers, (data as UsdTransfer).reference, {
        record: data as UsdTransfer,
        accountId: source ?? '',
        fingerprint: fingerprint({ ...request }),
      });
      if (source) recorded.sourceAccounts.push(source);
      break;
    case 'walletPayout':
      put(recorded.payouts, (data as WalletPayout).transaction_id, {
        record: data as WalletPayout,
        accountId: source ?? '',
      });
      if (source) recorded.sourceAccounts.push(source);
      break;
  }
}

/** Cards, and the cards recorded transactions belong to (filled from the seed when never read). */
function fillCards(state: MockState, recorded: Recorded, base: MockState): void {
  const fillers = [...base.cards.values()];
  for (const card of recorded.cards.values()) state.cards.set(card.card_id, card);
  for (const transaction of recorded.cardTransactions.values()) {
    state.cardTransactions.set(transaction.transaction_id, transaction);
    if (!state.cards.has(transaction.card_id)) {
      const filler = fillers[state.cards.size % fillers.length] as VirtualCard;
      state.cards.set(transaction.card_id, { ...filler, card_id: transaction.card_id });
    }
  }
  if (state.cards.size === 0) for (const card of base.cards.values()) state.cards.set(card.card_id, card);
  if (state.cardTransactions.size === 0) {
    // The seed's transactions, moved onto a card this mock has, so the seeded pair still reads.
    const card = [...state.cards.keys()][0] ?? '';
    const own = [...base.cardTransactions.values()].filter((t) => t.card_id === base.seeded.cardId);
    for (const transaction of own)
      state.cardTransactions.set(transaction.transaction_id, { ...transaction, card_id: card });
  }
}

function fillUsers(state: MockState, recorded: Recorded, base: MockState): void {
  for (const user of recorded.users.values()) addUser(state, user);
  if (state.users.length === 0) for (const user of base.users) addUser(state, user);
  // A user whose p2p status was read but who was never listed: the seed's details, the recorded id and p2p id.
  for (const [userId, status] of recorded.p2p) {
    if (state.usersById.has(userId)) continue;
    const filler = base.users[state.users.length % base.users.length] as User;
    addUser(state, { ...filler, user_id: userId, email: status.p2p_id });
  }
}

function fillAccounts(state: MockState, recorded: Recorded, base: MockState): string {
  for (const [id, account] of recorded.accounts) state.accounts.set(id, account);
  const merchant = base.accounts.get(base.seeded.merchantAccountId);
  const sources = recorded.sourceAccounts.filter((id) => !recorded.accounts.has(id));
  // An account the recording made and paid from holds a balance: the funds source it printed.
  const made = recorded.sourceAccounts.find((id) => recorded.accounts.get(id)?.holdBalance);
  if (sources.length === 0 && made !== undefined) return made;
  if (!merchant || sources.length === 0) {
    if (merchant) state.accounts.set(merchant.record.account_id, merchant);
    return base.seeded.merchantAccountId;
  }
  // The sandbox's own account: its id as recorded; balance and numbers were never shown, so the seed's.
  for (const id of sources)
    state.accounts.set(id, { ...merchant, record: { ...merchant.record, account_id: id } });
  return sources[0] as string;
}

/**
 * The state of a mock made from a recording: the records and payments the sandbox answered, under no
 * client so any client's replay finds them, and the seed's for what it never showed. An answer that
 * breaks the documented view is left out (the learned report says so): it would be served as pacu's.
 */
export function recordedState(checked: readonly CheckedExchange[], seed: number): MockState {
  const recorded = gather(checked);
  const base = seedState(seed);
  const state = emptyState(base.seeded);
  fillUsers(state, recorded, base);
  fillCards(state, recorded, base);
  for (const payment of recorded.pushToCard.values())
    state.pushToCard.set(payment.transaction_id, { record: payment });
  if (state.pushToCard.size === 0)
    for (const [id, payment] of base.pushToCard) state.pushToCard.set(id, payment);
  const merchantAccountId = fillAccounts(state, recorded, base);
  for (const transfer of recorded.transfers.values())
    addTransfer(state, { ...transfer, record: { ...transfer.record }, clientId: RECORDED_OWNER });
  for (const payout of recorded.payouts.values())
    addPayout(state, { ...payout, record: { ...payout.record }, clientId: RECORDED_OWNER });
  const transactions = [...state.cardTransactions.values()];
  // The seeded pair is a recorded card and its transaction when the recording read both.
  const transaction = transactions.find((t) => recorded.cards.has(t.card_id)) ?? transactions[0];
  state.seeded = {
    cardId: transaction?.card_id ?? [...state.cards.keys()][0] ?? '',
    cardTransactionId: transaction?.transaction_id ?? '',
    pushToCardId: [...state.pushToCard][0]?.[0] ?? '',
    merchantAccountId,
    userId: state.users[0]?.user_id ?? '',
  };
  return state;
}
