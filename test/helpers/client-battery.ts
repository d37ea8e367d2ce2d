// The requests a client team sends a sandbox, or the mock standing in for it, to test its own
// happy and unhappy paths: none of them is the teaching session's (other amounts, other page sizes,
// other paths), so agreeing on them is not agreeing on what was recorded.
import { requestFieldNames, type Spec } from '../../spec/index.ts';
import type { Answer, Side } from './side-client.ts';

export interface BatteryIds {
  readonly cardId: string;
  readonly cardTransactionId: string;
  readonly pushToCardId: string;
}

/** One probe's outcome: the status, and for a refusal the request field its message names first. */
export interface Outcome {
  readonly probe: string;
  readonly status: number;
  readonly field: string | undefined;
}

interface Probe {
  readonly name: string;
  readonly method: 'GET' | 'POST';
  readonly path: string;
  /** `undefined`: no token; else the scopes asked for; `bad`: a token never issued. */
  readonly scope?: string | 'bad';
  readonly body?: Record<string, unknown>;
}

const FIELDS = (spec: Spec): string[] => [
  ...new Set([
    ...spec.operations.flatMap((operation) => requestFieldNames(operation)),
    ...spec.operations.flatMap((operation) => operation.parameters.map(({ name }) => name)),
    'offset',
    'limit',
    'page_size',
  ]),
];

/** The request field a message names first, if any: what a client reads from a refusal. */
function fieldOf(spec: Spec, answer: Answer): string | undefined {
  const message = typeof answer.json?.message === 'string' ? answer.json.message : '';
  let found: string | undefined;
  let at = Number.POSITIVE_INFINITY;
  for (const name of FIELDS(spec)) {
    const index = message.search(new RegExp(`(?<![\\w])${name}(?![\\w])`));
    if (index >= 0 && index < at) {
      at = index;
      found = name;
    }
  }
  return found;
}

const ALL = 'card,us_account';

function probes(ids: BatteryIds, accountId: string, userId: string, tag: string): Probe[] {
  let n = 0;
  const transfer = (amount: number, type: string, extra: Record<string, unknown> = {}) => ({
    account_id: accountId,
    account_number: '004455667788',
    account_type: 'CHECKING',
    amount,
    routing_number: '026009593',
    transfer_type: type,
    reference: `client-${tag}-${++n}`,
    recipient_email: 'mo@example.org',
    recipient_name: 'Mo Diaz',
    description: 'client suite',
    ...extra,
  });
  const payout = (amount: number, extra: Record<string, unknown> = {}) => ({
    account_id: accountId,
    amount,
    wallet_id: 'mo@example.org',
    recipient_name: 'Mo Diaz',
    description: 'client suite',
    ...extra,
  });
  const post = (
    name: string,
    path: string,
    body: Record<string, unknown>,
    scope: string | undefined = ALL,
  ) => ({
    name,
    method: 'POST' as const,
    path,
    body,
    ...(scope !== undefined ? { scope } : {}),
  });
  const get = (name: string, path: string, scope: string | undefined = ALL) => ({
    name,
    method: 'GET' as const,
    path,
    ...(scope !== undefined ? { scope } : {}),
  });
  const without = (body: Record<string, unknown>, field: string) => {
    const { [field]: _left, ...rest } = body;
    return rest;
  };
  const reused = transfer(61, 'ACH');
  const card = encodeURIComponent(ids.cardId);
  return [
    get('list users', '/users'),
    get('list users, second page of 1', '/users?page=2&per_page=1'),
    get('read the card', `/cards/virtual/${card}`),
    get(
      'read the card transaction',
      `/cards/${card}/transactions/${encodeURIComponent(ids.cardTransactionId)}`,
    ),
    get('read the push-to-card payment', `/payments/card/${encodeURIComponent(ids.pushToCardId)}`),
    get('read the p2p status', `/p2p/status/${encodeURIComponent(userId)}`),
    post('an ACH transfer', '/payments/usd/direct', transfer(250.75, 'ACH')),
    post(
      'a WIRE transfer to savings',
      '/payments/usd/direct',
      transfer(3000, 'WIRE', { account_type: 'SAVINGS' }),
    ),
    post('a wallet payout', '/payments/wallet', payout(75)),
    post('a reference first', '/payments/usd/direct', reused),
    post('the same reference, another amount', '/payments/usd/direct', { ...reused, amount: 62 }),
    ...[0.5, 99_999.99, 150_000, 2_000_000, 0, -5].map((amount) =>
      post(`ACH of ${amount}`, '/payments/usd/direct', transfer(amount, 'ACH')),
    ),
    ...[0.25, 0.75, 1.5, 500_000].map((amount) =>
      post(`WIRE of ${amount}`, '/payments/usd/direct', transfer(amount, 'WIRE')),
    ),
    ...[0.3, 9999, 12_000, 60_000].map((amount) =>
      post(`payout of ${amount}`, '/payments/wallet', payout(amount)),
    ),
    get('users with a card token', '/users', 'card'),
    post('a transfer with a card token', '/payments/usd/direct', transfer(20, 'ACH'), 'card'),
    get('the card with a us_account token', `/cards/virtual/${card}`, 'us_account'),
    post('an account with a card token', '/accounts', { hold_balance: true, user_id: userId }, 'card'),
    get('users without a token', '/users', undefined),
    post('a transfer without a token', '/payments/usd/direct', transfer(21, 'ACH'), undefined),
    get('the card without a token', `/cards/virtual/${card}`, undefined),
    get('users with a bad token', '/users', 'bad'),
    ...['page=0', 'page=-3', 'per_page=0', 'per_page=75', 'per_page=5000', 'limit=500', 'offset=-5'].map(
      (query) => get(`users?${query}`, `/users?${query}`),
    ),
    get('users with a trailing slash', '/users/'),
    get('users in capitals', '/Users'),
    get('the card with a trailing slash', `/cards/virtual/${card}/`),
    post('a transfer with a trailing slash', '/payments/usd/direct/', transfer(22, 'ACH')),
    post(
      'a transfer from an unknown account',
      '/payments/usd/direct',
      transfer(23, 'ACH', { account_id: `acct-none-${tag}` }),
    ),
    post(
      'a payout from an unknown account',
      '/payments/wallet',
      payout(24, { account_id: `acct-none-${tag}` }),
    ),
    post('an account for an unknown user', '/accounts', { hold_balance: true, user_id: `user-none-${tag}` }),
    get('an unknown card', `/cards/virtual/card-none-${tag}`),
    get('an unknown card transaction', `/cards/${card}/transactions/tx-none-${tag}`),
    get('an unknown p2p user', `/p2p/status/user-none-${tag}`),
    get('an unknown push-to-card payment', `/payments/card/ptc-none-${tag}`),
    post('a transfer without reference', '/payments/usd/direct', without(transfer(25, 'ACH'), 'reference')),
    post(
      'a transfer without recipient_name',
      '/payments/usd/direct',
      without(transfer(26, 'ACH'), 'recipient_name'),
    ),
    post('a payout without wallet_id', '/payments/wallet', without(payout(27), 'wallet_id')),
    post('an account without hold_balance', '/accounts', { user_id: userId }),
    post('a transfer type not listed', '/payments/usd/direct', transfer(28, 'SEPA')),
    post(
      'an account type not listed',
      '/payments/usd/direct',
      transfer(29, 'ACH', { account_type: 'MONEY_MARKET' }),
    ),
  ];
}

/** Every probe of the battery against one side, in order. */
export async function runBattery(spec: Spec, side: Side, ids: BatteryIds, tag: string): Promise<Outcome[]> {
  const token = await side.token();
  const users = await side.send('GET', '/users', { token });
  const userId = String((users.json?.data?.items as Array<{ user_id: string }> | undefined)?.[0]?.user_id);
  const account = await side.send('POST', '/accounts', {
    token,
    json: { hold_balance: true, user_id: userId },
  });
  const accountId = String(account.json?.data?.account_id);
  const outcomes: Outcome[] = [];
  for (const probe of probes(ids, accountId, userId, tag)) {
    const bearer =
      probe.scope === undefined
        ? undefined
        : probe.scope === 'bad'
          ? 'never-issued-by-anyone'
          : await side.token(probe.scope);
    const answer = await side.send(probe.method, probe.path, {
      ...(bearer !== undefined ? { token: bearer } : {}),
      ...(probe.body ? { json: probe.body } : {}),
    });
    outcomes.push({
      probe: probe.name,
      status: answer.status,
      field: answer.status >= 400 ? fieldOf(spec, answer) : undefined,
    });
  }
  return outcomes;
}
