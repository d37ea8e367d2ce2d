// What the teaching session explores beside the happy path, and what a mock made from its
// recording then enforces, against one space provider whose knobs are a sandbox's seen: hidden
// amount bounds per payment type, GET /users needing a scope, paging limits, a trailing slash served,
// a seeded record with milliseconds, a fee per transfer type, detailed refusal messages.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMock, startMock } from '../mock/index.ts';
import { type Side, sideClient } from './helpers/side-client.ts';
import { type Taught, teachThroughProxy } from './helpers/teach-recording.ts';
import { KNOB_DEFAULTS } from './providers/space/knobs.ts';
import { type SpaceProvider, startSpaceProvider } from './providers/space/space-provider.ts';

let folder: string;
let provider: SpaceProvider;
let mock: RunningMock;
let taught: Taught;
let sides: { provider: Side; mock: Side };
/** An account that holds a balance on each side, and a user of each side. */
let funds: { provider: string; mock: string };

async function accountOf(side: Side): Promise<string> {
  const token = await side.token();
  const users = await side.send('GET', '/users', { token });
  const items = users.json?.data?.items as Array<{ user_id: string }>;
  const made = await side.send('POST', '/accounts', {
    token,
    json: { hold_balance: true, user_id: items[0]?.user_id },
  });
  return String(made.json?.data?.account_id);
}

const transfer = (accountId: string, amount: number, type: 'ACH' | 'WIRE', reference: string) => ({
  account_id: accountId,
  account_number: '000123456789',
  account_type: 'SAVINGS',
  amount,
  routing_number: '021000021',
  transfer_type: type,
  reference,
  recipient_email: 'lin@example.com',
  recipient_name: 'Lin Ko',
  description: 'client test',
});

const payout = (accountId: string, amount: number) => ({
  account_id: accountId,
  amount,
  wallet_id: 'lin@example.com',
  recipient_name: 'Lin Ko',
  description: 'client test',
});

let counter = 0;
/** The same request to both sides (a reference unique to it), and both answers' statuses. */
async function both(
  method: string,
  route: string,
  options: { scope?: string; body?: (accountId: string, reference: string) => unknown; token?: false } = {},
): Promise<{ provider: number; mock: number; messages: [unknown, unknown] }> {
  counter += 1;
  const reference = `client-${process.pid}-${counter}`;
  const answers = await Promise.all(
    (['provider', 'mock'] as const).map(async (name) => {
      const side = sides[name];
      const token = options.token === false ? undefined : await side.token(options.scope);
      return side.send(method, route, {
        ...(token !== undefined ? { token } : {}),
        ...(options.body ? { json: options.body(funds[name], reference) } : {}),
      });
    }),
  );
  const [fromProvider, fromMock] = answers as [
    Awaited<ReturnType<Side['send']>>,
    Awaited<ReturnType<Side['send']>>,
  ];
  return {
    provider: fromProvider.status,
    mock: fromMock.status,
    messages: [fromProvider.json?.message, fromMock.json?.message],
  };
}

beforeAll(async () => {
  folder = await mkdtemp(path.join(tmpdir(), 'pacu-teach-'));
  provider = await startSpaceProvider({
    knobs: {
      ...KNOB_DEFAULTS,
      amountBoundsByType: 'per-payment-type',
      usersScope: 'us_account',
      pageLimits: 'refused',
      pathVariants: 'trailing-slash',
      seededTimestamps: 'milliseconds',
      transferFees: 'per-type',
      errorMessages: 'detailed',
      unknownIdStatus: 404,
    },
  });
  taught = await teachThroughProxy({ url: provider.url, ...provider.client, ids: provider.ids }, folder);
  mock = await startMock({ fromRecording: taught.file, log: () => {} });
  sides = {
    provider: sideClient(provider.url, provider.client.clientId, provider.client.clientSecret),
    mock: sideClient(mock.url, mock.demoClient.clientId, mock.demoClient.clientSecret),
  };
  funds = { provider: await accountOf(sides.provider), mock: await accountOf(sides.mock) };
}, 60_000);

afterAll(async () => {
  await mock?.close();
  await provider?.close();
  await rm(folder, { recursive: true, force: true });
});

describe('a mock taught by pacu record refuses where the sandbox refuses (issue 37)', () => {
  it('1. amount bounds per payment type: WIRE below 1.00, ACH above 100,000, wallet above 10,000', async () => {
    const cases: Array<[string, number, 'ACH' | 'WIRE' | 'wallet']> = [
      ['WIRE', 0.5, 'WIRE'],
      ['WIRE', 0.99, 'WIRE'],
      ['WIRE', 1, 'WIRE'],
      ['ACH', 0.5, 'ACH'],
      ['ACH', 100_000, 'ACH'],
      ['ACH', 100_000.01, 'ACH'],
      ['ACH', 400_000, 'ACH'],
      ['WIRE', 400_000, 'WIRE'],
      ['wallet', 10_000, 'wallet'],
      ['wallet', 10_000.5, 'wallet'],
      ['wallet', 0.5, 'wallet'],
    ];
    const seen = [];
    for (const [name, amount, type] of cases) {
      const answer =
        type === 'wallet'
          ? await both('POST', '/payments/wallet', { body: (account) => payout(account, amount) })
          : await both('POST', '/payments/usd/direct', {
              body: (account, reference) => transfer(account, amount, type, reference),
            });
      seen.push({ name, amount, provider: answer.provider, mock: answer.mock });
    }
    expect(seen.map(({ name, amount, mock }) => ({ name, amount, status: mock }))).toEqual(
      seen.map(({ name, amount, provider }) => ({ name, amount, status: provider })),
    );
    expect(seen.filter(({ provider }) => provider === 400).length).toBe(5);
    const bounds = mock.learned?.choices.filter((choice) => choice.choice.startsWith('bounds.')) ?? [];
    expect(bounds.map((choice) => choice.shown).join('\n')).toMatch(/WIRE.*1\.00/);
  });

  it('2. scope per endpoint: GET /users with a token of scope card only', async () => {
    const answer = await both('GET', '/users', { scope: 'card' });
    expect(answer.provider).toBe(403);
    expect(answer.mock).toBe(answer.provider);
    expect((await both('GET', '/users', { scope: 'us_account' })).mock).toBe(200);
  });

  it('3. paging limits: page 0, and page sizes around the largest accepted', async () => {
    for (const query of ['page=0', 'per_page=0', 'per_page=50', 'per_page=51', 'per_page=1000', 'page=2']) {
      const answer = await both('GET', `/users?${query}`);
      expect({ query, status: answer.mock }).toEqual({ query, status: answer.provider });
    }
  });

  it('4. path variants: a trailing slash is served, another case is not', async () => {
    for (const route of ['/users/', '/USERS', '/Users/', `/cards/virtual/${provider.ids.cardId}/`]) {
      const answer = await both('GET', route);
      expect({ route, status: answer.mock }).toEqual({ route, status: answer.provider });
    }
  });

  it('5. one sample makes no rule: one seeded record with milliseconds teaches no timestamp form', async () => {
    const made = await sides.mock.send('POST', '/payments/usd/direct', {
      token: await sides.mock.token(),
      json: transfer(funds.mock, 20, 'ACH', `ts-${process.pid}`),
    });
    expect(String(made.json?.data?.transaction_date)).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    const card = mock.learned?.choices.find((choice) => choice.choice === 'timestamps.getCardTransaction');
    expect(card).toMatchObject({ from: 'default' });
    expect(card?.shown).toMatch(/left free/);
  });

  it('6. one kind teaches no other: a WIRE fee is the one WIRE transfers showed', async () => {
    const fees = [];
    for (const type of ['ACH', 'WIRE'] as const) {
      const answers = await Promise.all(
        (['provider', 'mock'] as const).map(async (name) =>
          sides[name].send('POST', '/payments/usd/direct', {
            token: await sides[name].token(),
            json: transfer(funds[name], 30, type, `fee-${type}-${process.pid}`),
          }),
        ),
      );
      fees.push(answers.map((answer) => ({ type, fee: answer.json?.data?.fee })));
    }
    const [acha, wire] = fees as [unknown[], unknown[]];
    expect(acha[1]).toEqual(acha[0]);
    expect(wire[1]).toEqual(wire[0]);
  });

  it('7. a learned message names the field that was refused: an unknown account_id is not a user_id', async () => {
    const answer = await both('POST', '/payments/usd/direct', {
      body: (_account, reference) => transfer('acct-nobody-has', 25, 'ACH', reference),
    });
    expect(answer.mock).toBe(answer.provider);
    expect(String(answer.messages[1])).toMatch(/\baccount_id\b/);
    expect(String(answer.messages[1])).not.toMatch(/user_id/);
  });

  it("8. the mock's ids are the recorded records', not pacu's seeded ones", () => {
    const recorded = taught.har.log.entries.map((entry) => entry.response.content.text ?? '').join('\n');
    for (const [name, id] of Object.entries(mock.seeded))
      expect({ name, recorded: recorded.includes(JSON.stringify(id)) }).toEqual({ name, recorded: true });
  });
});
