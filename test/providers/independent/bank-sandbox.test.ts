import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BankSandbox, MUTANT_NAMES, type MutantName, startBankSandbox } from './index.ts';

// The sandbox is judged here without pacu: each mutant's sentence is probed by hand, so a mutant that
// pacu lets through is known to be a real break, and a mutant breaks its own sentence and no other.

interface Answer {
  readonly status: number;
  readonly type: string;
  readonly body: Record<string, unknown>;
}

async function call(
  sandbox: BankSandbox,
  method: string,
  path: string,
  options: { token?: string; json?: unknown } = {},
): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`;
  if (options.json !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${sandbox.url}${path}`, {
    method,
    headers,
    body: options.json === undefined ? null : JSON.stringify(options.json),
  });
  return {
    status: response.status,
    type: response.headers.get('content-type') ?? '',
    body: JSON.parse(await response.text()) as Record<string, unknown>,
  };
}

async function tokenAnswer(sandbox: BankSandbox): Promise<Answer> {
  const response = await fetch(`${sandbox.url}/auth/token`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${sandbox.clientId}:${sandbox.clientSecret}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: 'grant_type=client_credentials&scope=card,us_account',
  });
  return { status: response.status, type: '', body: (await response.json()) as Record<string, unknown> };
}

const data = (answer: Answer): Record<string, unknown> => answer.body.data as Record<string, unknown>;

interface Given {
  readonly sandbox: BankSandbox;
  readonly token: string;
  readonly accountId: string;
}

function transfer(given: Given, reference: string): Record<string, unknown> {
  return {
    account_id: given.accountId,
    account_number: '123456789',
    account_type: 'SAVINGS',
    amount: 99.95,
    routing_number: '021000021',
    transfer_type: 'WIRE',
    reference,
    recipient_email: 'Pat.Lee@example.com',
    recipient_name: 'Pat Lee',
    description: 'Rent',
  };
}

const fresh = (): string => `ref-${randomUUID()}`;

/** Whether each mutant's sentence holds on a sandbox, probed from outside. */
const HOLDS: Record<MutantName, (given: Given) => Promise<boolean>> = {
  'success-message-missing': async (g) =>
    typeof (await call(g.sandbox, 'GET', '/users', { token: g.token })).body.message === 'string',
  'text-plain-responses': async (g) =>
    (await call(g.sandbox, 'GET', '/users', { token: g.token })).type.startsWith('application/json'),
  'error-extra-field': async (g) =>
    Object.keys((await call(g.sandbox, 'GET', '/nowhere')).body)
      .sort()
      .join() === 'message,success',
  'token-type-missing': async (g) => typeof data(await tokenAnswer(g.sandbox)).token_type === 'string',
  'scope-not-echoed': async (g) => data(await tokenAnswer(g.sandbox)).scope === 'card,us_account',
  'replay-new-transaction': async (g) => {
    const body = transfer(g, fresh());
    const first = await call(g.sandbox, 'POST', '/payments/usd/direct', { token: g.token, json: body });
    const again = await call(g.sandbox, 'POST', '/payments/usd/direct', { token: g.token, json: body });
    return data(first).transaction_id === data(again).transaction_id;
  },
  'echo-reference-prefixed': async (g) => {
    const body = transfer(g, fresh());
    const record = data(
      await call(g.sandbox, 'POST', '/payments/usd/direct', { token: g.token, json: body }),
    );
    return Object.entries(body).every(([field, value]) => record[field] === value);
  },
  'missing-field-422': async (g) => {
    const { recipient_email: _, ...body } = transfer(g, fresh());
    return (
      (await call(g.sandbox, 'POST', '/payments/usd/direct', { token: g.token, json: body })).status === 400
    );
  },
  'routing-number-optional': async (g) => {
    const { routing_number: _, ...body } = transfer(g, fresh());
    // Required means refused; which status refuses it is the 400 sentence's own probe.
    const answer = await call(g.sandbox, 'POST', '/payments/usd/direct', { token: g.token, json: body });
    return answer.status >= 400;
  },
  'account-created-201': async (g) => (await createAccount(g)).status === 200,
  'account-balance-credited': async (g) => data(await createAccount(g)).balance === 0,
  'account-status-pending': async (g) => data(await createAccount(g)).account_status === 'ACTIVE',
  'numbers-without-rtp': async (g) => {
    const numbers = data(await createAccount(g)).numbers as Record<string, Record<string, unknown>>;
    return ['ACH', 'RTP', 'WIRE'].every(
      (rail) =>
        typeof numbers[rail]?.account_number === 'string' &&
        typeof numbers[rail]?.routing_number === 'string',
    );
  },
  'users-without-total-pages': async (g) => {
    const list = data(await call(g.sandbox, 'GET', '/users', { token: g.token }));
    return ['page', 'total_count', 'total_pages'].every((field) => Number.isInteger(list[field]));
  },
  'transfer-status-uppercase': async (g) => {
    const body = transfer(g, fresh());
    const record = data(
      await call(g.sandbox, 'POST', '/payments/usd/direct', { token: g.token, json: body }),
    );
    return ['processing', 'successful', 'failed'].includes(String(record.transaction_status));
  },
  'card-expiration-four-digit-year': async (g) => {
    const card = await call(g.sandbox, 'GET', `/cards/virtual/${g.sandbox.cardId}`, { token: g.token });
    return /^(0[1-9]|1[0-2])\/\d{2}$/.test(String(data(card).expiration));
  },
  'p2p-id-not-email': async (g) => {
    const users = data(await call(g.sandbox, 'GET', '/users', { token: g.token })).items as {
      user_id: string;
    }[];
    const p2p = await call(g.sandbox, 'GET', `/p2p/status/${users[0]?.user_id}`, { token: g.token });
    return /^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(String(data(p2p).p2p_id));
  },
  'card-amount-string': async (g) => {
    const path = `/cards/${g.sandbox.cardId}/transactions/${g.sandbox.cardTransactionId}`;
    return typeof data(await call(g.sandbox, 'GET', path, { token: g.token })).amount === 'number';
  },
  'transfer-without-bearer': async (g) =>
    (await call(g.sandbox, 'POST', '/payments/usd/direct', { json: transfer(g, fresh()) })).status >= 400,
  'version-v2': async (g) => g.sandbox.url.endsWith('/v3'),
};

async function createAccount(g: Given): Promise<Answer> {
  const users = data(await call(g.sandbox, 'GET', '/users', { token: g.token })).items as {
    user_id: string;
  }[];
  return call(g.sandbox, 'POST', '/accounts', {
    token: g.token,
    json: { user_id: users[0]?.user_id, hold_balance: true },
  });
}

async function given(sandbox: BankSandbox): Promise<Given> {
  const token = String(data(await tokenAnswer(sandbox)).access_token);
  return {
    sandbox,
    token,
    accountId: String(data(await createAccount({ sandbox, token, accountId: '' })).account_id),
  };
}

async function broken(mutant: MutantName | undefined): Promise<MutantName[]> {
  const sandbox = await startBankSandbox({ mutant });
  try {
    const g = await given(sandbox);
    const failing: MutantName[] = [];
    for (const name of MUTANT_NAMES) if (!(await HOLDS[name](g))) failing.push(name);
    return failing;
  } finally {
    await sandbox.close();
  }
}

describe('the independent bank sandbox, probed without pacu', () => {
  it('holds every probed sentence when correct', async () => {
    expect(await broken(undefined)).toEqual([]);
  });

  for (const mutant of MUTANT_NAMES) {
    it(`${mutant} breaks its own sentence and no other probed one`, async () => {
      expect(await broken(mutant)).toEqual([mutant]);
    });
  }

  describe('choices where the description is silent', () => {
    let sandbox: BankSandbox;
    let g: Given;
    beforeAll(async () => {
      sandbox = await startBankSandbox();
      g = await given(sandbox);
    });
    afterAll(() => sandbox.close());

    it('echoes a transfer without a description as a record without one, and answers a replay with the record', async () => {
      const { description: _, ...body } = transfer(g, fresh());
      const first = await call(sandbox, 'POST', '/payments/usd/direct', { token: g.token, json: body });
      expect(first.status).toBe(200);
      expect(data(first)).not.toHaveProperty('description');
      expect(data(first).transaction_date).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}\+00:00$/);
      const conflict = await call(sandbox, 'POST', '/payments/usd/direct', {
        token: g.token,
        json: { ...body, amount: 1 },
      });
      expect(conflict).toMatchObject({ status: 409, body: { success: false } });
    });

    it('answers a replay after settlement with the current status', async () => {
      const settled = await startBankSandbox({ settleAfterSeconds: 0 });
      try {
        const s = await given(settled);
        const body = transfer(s, fresh());
        const first = await call(settled, 'POST', '/payments/usd/direct', { token: s.token, json: body });
        const again = await call(settled, 'POST', '/payments/usd/direct', { token: s.token, json: body });
        expect([data(first).transaction_status, data(again).transaction_status]).toEqual([
          'processing',
          'successful',
        ]);
        expect(data(again).transaction_id).toBe(data(first).transaction_id);
      } finally {
        await settled.close();
      }
    });

    it('has legal variants: every wallet field required, the first customer pending, a 25,000 ceiling', async () => {
      const variant = await startBankSandbox({
        walletRequiresEveryField: true,
        firstCustomerPending: true,
        amountCeiling: 25_000,
      });
      try {
        const v = await given(variant);
        const payout = {
          account_id: v.accountId,
          amount: 5,
          wallet_id: 'sam@example.com',
          recipient_name: 'Sam',
        };
        const refused = await call(variant, 'POST', '/payments/wallet', { token: v.token, json: payout });
        expect(refused).toMatchObject({
          status: 400,
          body: { success: false, message: 'description is required' },
        });
        const users = data(await call(variant, 'GET', '/users', { token: v.token })).items as {
          user_id: string;
        }[];
        const p2p = await call(variant, 'GET', `/p2p/status/${users[0]?.user_id}`, { token: v.token });
        expect(data(p2p).status).toBe('PENDING');
        const large = await call(variant, 'POST', '/payments/usd/direct', {
          token: v.token,
          json: { ...transfer(v, fresh()), amount: 25_000.01 },
        });
        expect(large).toMatchObject({ status: 400, body: { message: 'amount must not exceed 25000' } });
      } finally {
        await variant.close();
      }
    });

    it('decodes a JSON body labelled text/plain', async () => {
      const response = await fetch(`${sandbox.url}/payments/usd/direct`, {
        method: 'POST',
        headers: { authorization: `Bearer ${g.token}`, 'content-type': 'text/plain' },
        body: JSON.stringify(transfer(g, fresh())),
      });
      expect(response.status).toBe(200);
    });

    it('refuses a wrong secret with 401, a card read without the card scope with 403', async () => {
      const wrong = await fetch(`${sandbox.url}/auth/token`, {
        method: 'POST',
        headers: { authorization: `Basic ${Buffer.from(`${sandbox.clientId}:nope`).toString('base64')}` },
        body: 'grant_type=client_credentials&scope=card',
      });
      expect(wrong.status).toBe(401);
      const narrow = await fetch(`${sandbox.url}/auth/token`, {
        method: 'POST',
        headers: {
          authorization: `Basic ${Buffer.from(`${sandbox.clientId}:${sandbox.clientSecret}`).toString('base64')}`,
        },
        body: 'grant_type=client_credentials&scope=us_account',
      });
      const token = ((await narrow.json()) as { data: { access_token: string } }).data.access_token;
      const card = await call(sandbox, 'GET', `/cards/virtual/${sandbox.cardId}`, { token });
      expect(card).toMatchObject({ status: 403, body: { success: false } });
    });
  });
});
