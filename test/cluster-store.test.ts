// N mocks on one PostgreSQL behave as one mock: each guarantee of the shared store over real HTTP, with
// several replicas in this process on one real server (the nginx end-to-end is test/cluster-e2e).
// A replica killed mid-delivery, its webhook sent again by another after the lease, is proven there
// only: the lease is waited out once per run, not once per file.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type MockOptions, type RunningMock, startMock } from '../mock/index.ts';
import { fingerprint } from '../mock/internal/handlers/payments.ts';
import { startPostgres, type TestPostgres } from './helpers/postgres.ts';
import { call, getJson, postJson, tokenFor, transferBody } from './mock-helpers.ts';

const TOKEN = 'cluster-control-token';
const SECRET = `whsec_${Buffer.from('pacu cluster webhook key 0123456').toString('base64')}`;
let postgres: TestPostgres;
let running: RunningMock[] = [];
let servers: Server[] = [];
/** The database `replicas()` made last. */
let lastDatabase = '';

beforeAll(async () => {
  postgres = await startPostgres();
}, 60_000);
afterEach(async () => {
  await Promise.all(running.map((mock) => mock.close()));
  for (const server of servers) server.close();
  running = [];
  servers = [];
});
afterAll(() => postgres?.close());

/** `count` replicas on a new database, started one after another as a rollout does. */
async function replicas(count: number, options: MockOptions = {}): Promise<RunningMock[]> {
  const store = await postgres.createDatabase();
  lastDatabase = store.split('/').at(-1) as string;
  const started: RunningMock[] = [];
  for (let index = 0; index < count; index++) {
    const mock = await startMock({ store, controlToken: TOKEN, clock: 'manual', log: () => {}, ...options });
    running.push(mock);
    started.push(mock);
  }
  return started;
}

const control = (mock: RunningMock, path: string, init: RequestInit = {}) =>
  call(`${mock.origin}/__pacu${path}`, {
    ...init,
    headers: { 'x-pacu-control-token': TOKEN, 'content-type': 'application/json', ...init.headers },
  });

/** The store's round trips so far, by what asked for them. */
const roundTrips = async (mock: RunningMock): Promise<Record<string, number>> =>
  ((await control(mock, '/store')).body as { roundTrips: Record<string, number> }).roundTrips;

/** One mock on the memory store, as the replicas' answers are compared with. */
async function singleMock(): Promise<RunningMock> {
  const single = await startMock({ clock: 'manual', log: () => {} });
  running.push(single);
  return single;
}

/**
 * Send `requests` while another session holds `table` locked (the config row by default), so they
 * all arrive while the first statement on it waits; their answers once the lock is let go.
 */
async function whileLocked<T>(requests: () => Promise<T>, table = 'pacu_config'): Promise<T> {
  const session = new pg.Client({ connectionString: postgres.url(lastDatabase) });
  await session.connect();
  try {
    await session.query('BEGIN');
    await session.query(`LOCK TABLE ${table} IN ACCESS EXCLUSIVE MODE`);
    const answers = requests();
    await new Promise((resolve) => setTimeout(resolve, 500));
    await session.query('COMMIT');
    return await answers;
  } finally {
    await session.end();
  }
}

async function receiver(): Promise<{ url: string; ids: string[] }> {
  const ids: string[] = [];
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      ids.push(String(request.headers['webhook-id']));
      response.end();
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, ids };
}

describe('one mock on many replicas (PostgreSQL store)', () => {
  it('a storm of one reference over three replicas makes one transaction; another body gets what one mock answers', async () => {
    const [a, b, c] = (await replicas(3)) as [RunningMock, RunningMock, RunningMock];
    const token = await tokenFor(a);
    const body = transferBody(a.seeded.merchantAccountId, { reference: 'STORM-1' });
    const replies = await Promise.all(
      Array.from({ length: 30 }, (_, index) =>
        postJson(`${[a, b, c][index % 3]?.url}/payments/usd/direct`, token, body),
      ),
    );
    expect(
      replies
        .filter((reply) => reply.status !== 200)
        .map((reply) => `${reply.status} ${JSON.stringify(reply.body)}`),
    ).toEqual([]);
    expect(new Set(replies.map((reply) => reply.body.data.transaction_id)).size).toBe(1);
    expect(replies.filter((reply) => reply.body.message === 'Transfer created')).toHaveLength(1);
    const single = await singleMock();
    const singleToken = await tokenFor(single);
    const singleBody = transferBody(single.seeded.merchantAccountId, { reference: 'STORM-1' });
    await postJson(`${single.url}/payments/usd/direct`, singleToken, singleBody);
    const other = { ...body, amount: 999 };
    const onCluster = await postJson(`${c.url}/payments/usd/direct`, token, other);
    const onOne = await postJson(`${single.url}/payments/usd/direct`, singleToken, {
      ...singleBody,
      amount: 999,
    });
    expect({ status: onCluster.status, message: onCluster.body.message }).toEqual({
      status: onOne.status,
      message: onOne.body.message,
    });
  });

  it('a token from one replica works on all, and a write through one is read through another at once', async () => {
    const [a, b] = (await replicas(2)) as [RunningMock, RunningMock];
    const token = await tokenFor(a);
    for (let round = 0; round < 5; round++) {
      const account = await postJson(`${a.url}/accounts`, token, {
        hold_balance: true,
        user_id: a.seeded.userId,
      });
      expect(account.status).toBe(200);
      const spent = await postJson(
        `${b.url}/payments/usd/direct`,
        token,
        transferBody(account.body.data.account_id),
      );
      expect(spent.status).toBe(200);
      const card = await control(b, '/payments/card', {
        method: 'POST',
        body: JSON.stringify({ amount: 5 }),
      });
      expect((await getJson(`${a.url}/payments/card/${card.body.transaction_id}`, token)).status).toBe(200);
    }
    expect(b.seeded).toEqual(a.seeded);
  });

  it('the clock, reset, faults, the journal and coverage are the cluster’s, through any replica', async () => {
    const [a, b] = (await replicas(2)) as [RunningMock, RunningMock];
    const token = await tokenFor(a);
    await control(a, '/clock/advance', { method: 'POST', body: JSON.stringify({ seconds: 60 }) });
    expect((await control(b, '/clock')).body.epochMs).toBe((await control(a, '/clock')).body.epochMs);
    await control(a, '/faults', {
      method: 'POST',
      body: JSON.stringify({ operation: 'listUsers', kind: 'status', status: 503, times: 2 }),
    });
    const statuses = [];
    for (const mock of [b, a, b, a]) statuses.push((await getJson(`${mock.url}/users`, token)).status);
    expect(statuses).toEqual([503, 503, 200, 200]);
    const made = await postJson(
      `${a.url}/payments/usd/direct`,
      token,
      transferBody(a.seeded.merchantAccountId),
    );
    expect(made.status).toBe(200);
    const journal = await control(b, '/requests?operation=listUsers');
    expect(journal.body.map((entry: { status: number }) => entry.status)).toEqual([503, 503, 200, 200]);
    await control(b, '/reset', { method: 'POST', body: '{}' });
    expect((await control(a, '/state')).body.transfers).toEqual([]);
    const coverage = (await control(a, '/coverage')).body;
    const listUsers = coverage.operations.find(
      (row: { operationId: string }) => row.operationId === 'listUsers',
    );
    expect(listUsers.statuses).toEqual({ 200: 2, 503: 2 });
  });

  it('a request answered through one replica is in the journal and coverage read at once through another', async () => {
    const [a, b] = (await replicas(2)) as [RunningMock, RunningMock];
    const token = await tokenFor(a);
    for (let round = 1; round <= 10; round++) {
      const path = `/cards/virtual/card_missing_${round}`;
      expect((await getJson(`${a.url}${path}`, token)).status).toBe(400);
      const journal = (await control(b, '/requests?operation=getVirtualCard')).body as Array<{
        path: string;
      }>;
      expect(journal.map((entry) => entry.path)).toContain(`/v3${path}`);
      const coverage = (await control(b, '/coverage')).body;
      const row = coverage.operations.find(
        (operation: { operationId: string }) => operation.operationId === 'getVirtualCard',
      );
      expect(row.statuses[400]).toBe(round);
    }
  });

  it("the journal read through another replica hides what only the keeping replica's redactor knew", async () => {
    const [a, b] = (await replicas(2)) as [RunningMock, RunningMock];
    const token = await tokenFor(a);
    // The token reaches replica A only: B's redactor never learns it, and the echo is no credential by name.
    await call(`${a.url}/payments/usd/direct`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ description: `paid with ${token}` }),
    });
    const journal = JSON.stringify((await control(b, '/requests?operation=usdTransfer')).body);
    expect(journal).toContain('paid with');
    expect(journal).not.toContain(token);
  });

  it('each lifecycle step and each webhook happens once for the cluster, with one id per event', async () => {
    const hooks = await receiver();
    const mocks = await replicas(3, { webhooks: [{ url: hooks.url, secret: SECRET }] });
    const [a, b, c] = mocks as [RunningMock, RunningMock, RunningMock];
    expect((await control(a, '/webhooks/receivers')).body).toHaveLength(1);
    const token = await tokenFor(a);
    for (const [index, mock] of mocks.entries())
      await postJson(
        `${mock.url}/payments/usd/direct`,
        token,
        transferBody(a.seeded.merchantAccountId, { reference: `LIFE-${index}` }),
      );
    await Promise.all([
      control(a, '/clock/advance', { method: 'POST', body: JSON.stringify({ seconds: 120 }) }),
      control(b, '/clock/advance', { method: 'POST', body: JSON.stringify({ seconds: 1 }) }),
    ]);
    await c.control.webhooksIdle();
    const events = (await control(c, '/webhooks/events')).body as Array<{ id: string; type: string }>;
    expect(events).toHaveLength(3);
    expect([...hooks.ids].sort()).toEqual(events.map((event) => event.id).sort());
    const dumped = (await control(b, '/state')).body.transfers as Array<{
      record: { transaction_status: string };
    }>;
    expect(dumped.every((transfer) => transfer.record.transaction_status !== 'processing')).toBe(true);
  });

  it("a user's first p2p read marks it and makes its webhook in one write: an event that cannot be written is made on the next read, once", async () => {
    const [a, b] = (await replicas(2)) as [RunningMock, RunningMock];
    const token = await tokenFor(a);
    // The first event the database is asked to store fails, as a write cut by a crash would.
    await postgres.sql(
      // A sequence, not a table: what the failed write did is rolled back, nextval is not.
      `CREATE SEQUENCE fail_once;
       CREATE FUNCTION fail_once() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN IF nextval('fail_once') = 1 THEN RAISE EXCEPTION 'cut'; END IF; RETURN NEW; END $$;
       CREATE TRIGGER fail_once BEFORE INSERT ON pacu_events FOR EACH ROW EXECUTE FUNCTION fail_once();`,
      lastDatabase,
    );
    const user = a.seeded.userId;
    expect((await getJson(`${a.url}/p2p/status/${user}`, token)).status).toBe(500);
    for (const mock of [b, a])
      expect((await getJson(`${mock.url}/p2p/status/${user}`, token)).status).toBe(200);
    const events = (await control(b, '/webhooks/events')).body as Array<{ type: string }>;
    expect(events.map((event) => event.type)).toEqual(['p2p.validated']);
  });

  it('a receiver that answers 429 is throttled for the whole cluster, not per replica', async () => {
    let open = 0;
    const inFlight: number[] = [];
    const server = createServer((request, response) => {
      inFlight.push(++open);
      request.resume();
      setTimeout(() => {
        open--;
        response.writeHead(429).end();
      }, 100);
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
    const [a, b] = (await replicas(2, {
      webhooks: [{ url, secret: SECRET }],
      webhookRetry: { delaysMs: [10, 10, 10], jitter: 0 },
    })) as [RunningMock, RunningMock];
    const token = await tokenFor(a);
    for (let index = 0; index < 24; index++)
      await postJson(
        `${[a, b][index % 2]?.url}/payments/usd/direct`,
        token,
        transferBody(a.seeded.merchantAccountId),
      );
    // 24 deliveries fall due at once on both replicas, each of which would take 16.
    await control(b, '/clock/advance', { method: 'POST', body: JSON.stringify({ seconds: 11 }) });
    const deadline = Date.now() + 10_000;
    while (inFlight.length < 24 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 20));
    // At most a lane's 16 from both replicas together; once those answered 429, one at a time.
    expect(Math.max(...inFlight)).toBeLessThanOrEqual(16);
    expect(Math.max(...inFlight.slice(16, 24))).toBe(1);
  });

  it('the control API of a shared store needs the token, even on loopback; the same token works on every replica', async () => {
    const store = await postgres.createDatabase();
    const without = await startMock({ store, log: () => {} });
    running.push(without);
    expect(without.controlToken).toMatch(/.{20,}/);
    expect((await call(`${without.origin}/__pacu/ids`)).status).toBe(401);
    const [a, b] = (await replicas(2)) as [RunningMock, RunningMock];
    for (const mock of [a, b]) {
      expect((await call(`${mock.origin}/__pacu/ids`)).status).toBe(401);
      expect((await control(mock, '/ids')).status).toBe(200);
    }
  });

  it('per-client isolation holds across replicas: accounts, references and a per-client reset', async () => {
    const [a, b] = (await replicas(2)) as [RunningMock, RunningMock];
    for (const clientId of ['job-1', 'job-2'])
      await control(a, '/clients', { method: 'POST', body: JSON.stringify({ clientId, clientSecret: 's' }) });
    const as = (clientId: string) => ({ clientId, clientSecret: 's', scopes: [] });
    const one = await tokenFor(a, as('job-1'));
    const two = await tokenFor(b, as('job-2'));
    const account = await postJson(`${a.url}/accounts`, one, {
      hold_balance: true,
      user_id: a.seeded.userId,
    });
    const theirs = await postJson(
      `${b.url}/payments/usd/direct`,
      two,
      transferBody(account.body.data.account_id),
    );
    expect(theirs.status).toBe(400);
    const body = transferBody(a.seeded.merchantAccountId, { reference: 'SHARED-NAME' });
    const first = await postJson(`${a.url}/payments/usd/direct`, one, body);
    const second = await postJson(`${b.url}/payments/usd/direct`, two, { ...body, amount: 77 });
    expect([first.body.message, second.body.message]).toEqual(['Transfer created', 'Transfer created']);
    await control(b, '/reset?clientId=job-1', { method: 'POST', body: '{}' });
    const left = (await control(a, '/state')).body.transfers as Array<{ clientId: string }>;
    expect(left.map((transfer) => transfer.clientId)).toEqual(['job-2']);
  });

  it('round trips: one for a read, two for a transfer (counted by the store, by what asked)', async () => {
    const [a] = (await replicas(1)) as [RunningMock];
    const token = await tokenFor(a);
    const requestTrips = async (): Promise<number> => {
      // The store's own due-work polls are not a request's.
      return Object.entries(await roundTrips(a))
        .filter(([what]) => !['step', 'delivery-claim', 'traffic-write', 'flush-ack', 'prune'].includes(what))
        .reduce((sum, [, count]) => sum + count, 0);
    };
    await getJson(`${a.url}/users`, token);
    let before = await requestTrips();
    await getJson(`${a.url}/users`, token);
    await getJson(`${a.url}/cards/virtual/${a.seeded.cardId}`, token);
    expect((await requestTrips()) - before).toBe(2);
    before = await requestTrips();
    await postJson(`${a.url}/payments/usd/direct`, token, transferBody(a.seeded.merchantAccountId));
    expect((await requestTrips()) - before).toBe(2);
  });

  it('reads of kept tokens and pages share one read of the config version: fewer round trips than requests', async () => {
    const [a] = (await replicas(1)) as [RunningMock];
    const token = await tokenFor(a);
    await getJson(`${a.url}/users`, token);
    const reads = async (): Promise<number> => (await roundTrips(a)).read ?? 0;
    const before = await reads();
    const replies = await whileLocked(() =>
      Promise.all(Array.from({ length: 40 }, () => getJson(`${a.url}/users`, token))),
    );
    expect(replies.every((reply) => reply.status === 200)).toBe(true);
    expect((await reads()) - before).toBeLessThanOrEqual(2);
  });

  it('transfers from a kept account with a kept token share that read too, and leave the reference to the insert', async () => {
    const [a] = (await replicas(1)) as [RunningMock];
    const token = await tokenFor(a);
    const from = a.seeded.merchantAccountId;
    expect((await postJson(`${a.url}/payments/usd/direct`, token, transferBody(from))).status).toBe(200);
    const reads = async (): Promise<number> => (await roundTrips(a)).read ?? 0;
    const before = await reads();
    const bodies = Array.from({ length: 40 }, () => transferBody(from));
    const replies = await whileLocked(() =>
      Promise.all(bodies.map((body) => postJson(`${a.url}/payments/usd/direct`, token, body))),
    );
    expect(replies.map((reply) => reply.body.message)).toEqual(bodies.map(() => 'Transfer created'));
    expect((await reads()) - before).toBeLessThanOrEqual(2);
    const again = await Promise.all(
      bodies.map((body) => postJson(`${a.url}/payments/usd/direct`, token, body)),
    );
    expect(new Set(again.map((reply) => reply.body.message))).toEqual(
      new Set(['Transfer already exists for this reference']),
    );
  });

  it('transfers that arrive together are inserted by a few statements, two of one reference never in one: each answered as one mock answers', async () => {
    const [a] = (await replicas(1)) as [RunningMock];
    const token = await tokenFor(a);
    const from = a.seeded.merchantAccountId;
    expect((await postJson(`${a.url}/payments/usd/direct`, token, transferBody(from))).status).toBe(200);
    const inserts = async (): Promise<number> => (await roundTrips(a))['insert-transfer'] ?? 0;
    const before = await inserts();
    // Each reference three times: twice with one body, once with another amount.
    const bodies = Array.from({ length: 15 }, () => transferBody(from)).flatMap((body) => [
      body,
      body,
      { ...body, amount: Number(body.amount) + 1 },
    ]);
    const replies = await whileLocked(
      () => Promise.all(bodies.map((body) => postJson(`${a.url}/payments/usd/direct`, token, body))),
      'pacu_transfers',
    );
    expect((await inserts()) - before).toBeLessThan(bodies.length / 3);
    // Whichever body of a reference came first made it, as on one mock: its twin is told it exists,
    // the other body is refused.
    for (let index = 0; index < bodies.length; index += 3) {
      const [first, twin, other] = replies.slice(index, index + 3).map((reply) => reply.body.message);
      const outcome = first === 'Transfer created' || twin === 'Transfer created' ? 'same' : 'other';
      if (outcome === 'same') {
        expect([first, twin].sort()).toEqual([
          'Transfer already exists for this reference',
          'Transfer created',
        ]);
        expect(other).toMatch(/already used with a different request body/);
      } else {
        expect(other).toBe('Transfer created');
        expect(
          [first, twin].every((message) =>
            /already used with a different request body/.test(String(message)),
          ),
        ).toBe(true);
      }
    }
  });

  it('a reference a recording left to every client is answered by the insert as one mock answers it', async () => {
    const answers = async (mock: RunningMock): Promise<string[]> => {
      const token = await tokenFor(mock);
      const from = mock.seeded.merchantAccountId;
      await postJson(`${mock.url}/payments/usd/direct`, token, transferBody(from, { reference: 'MINE-1' }));
      // The transfer made, left to every client (owner '') under another reference, as a recording
      // leaves it: with the hash of the request the sandbox took, not the body this client sends.
      const state = (await control(mock, '/state')).body as { transfers: Array<{ record: object }> };
      const [made] = state.transfers;
      expect(made, 'the transfer just made is in the state').toBeDefined();
      const recorded = {
        ...made,
        clientId: '',
        fingerprint: fingerprint({ reference: 'REC-1', amount: 1 }),
        record: { ...made?.record, reference: 'REC-1', transaction_id: 'txn_recorded' },
      };
      const put = await control(mock, '/state', {
        method: 'PUT',
        body: JSON.stringify({ ...state, transfers: [...state.transfers, recorded] }),
      });
      expect(put.status, JSON.stringify(put.body)).toBeLessThan(300);
      const said: string[] = [];
      for (const reference of ['MINE-2', 'REC-1', 'REC-1']) {
        const reply = await postJson(
          `${mock.url}/payments/usd/direct`,
          token,
          transferBody(from, { reference }),
        );
        said.push(
          `${reply.status} ${reply.body.message} ${reply.body.data?.transaction_id === 'txn_recorded'}`,
        );
      }
      return said;
    };
    const [replica] = (await replicas(1)) as [RunningMock];
    const single = await singleMock();
    const expected = await answers(single);
    // Found (another body under a used reference), not made anew.
    expect(expected.slice(1)).toEqual(
      Array(2).fill('409 reference REC-1 was already used with a different request body false'),
    );
    expect(await answers(replica)).toEqual(expected);
  });

  it('a used reference is answered as used whatever the account, as one mock answers, when the replica keeps both', async () => {
    const answers = async (mock: RunningMock): Promise<string[]> => {
      const token = await tokenFor(mock);
      const held = await postJson(`${mock.url}/accounts`, token, {
        hold_balance: false,
        user_id: mock.seeded.userId,
      });
      const used = transferBody(mock.seeded.merchantAccountId, { reference: 'USED-1' });
      const said: string[] = [];
      for (const body of [
        used,
        // The account is read (and kept) by a refused transfer first.
        transferBody(held.body.data.account_id),
        { ...used, account_id: held.body.data.account_id },
        { ...used, account_id: 'acc_nobody' },
      ]) {
        const reply = await postJson(`${mock.url}/payments/usd/direct`, token, body);
        said.push(`${reply.status} ${reply.body.message}`.replace(/acct_\w+/g, 'acct_…'));
      }
      return said;
    };
    const [replica] = (await replicas(1)) as [RunningMock];
    const single = await singleMock();
    expect(await answers(replica)).toEqual(await answers(single));
  });

  it('a token or a page of users kept by one replica is not used past a change made through another', async () => {
    const [a, b] = (await replicas(2)) as [RunningMock, RunningMock];
    const token = await tokenFor(a);
    const first = await getJson(`${b.url}/users`, token);
    expect(first.status).toBe(200);
    // A state without the token and with one user fewer, loaded through the other replica.
    const state = (await control(a, '/state')).body as Record<string, unknown[]>;
    const users = (state.users ?? []).slice(1);
    const loaded = await control(a, '/state', {
      method: 'PUT',
      body: JSON.stringify({ ...state, users, tokens: [] }),
    });
    expect(loaded.status).toBe(200);
    expect((await getJson(`${b.url}/users`, token)).status).toBe(401);
    const fresh = await tokenFor(a);
    const after = await getJson(`${b.url}/users`, fresh);
    expect(after.body.data.total_count).toBe(first.body.data.total_count - 1);
  });

  it('a replica started from another seed is refused with one line', async () => {
    const store = await postgres.createDatabase();
    running.push(await startMock({ store, controlToken: TOKEN, seed: 1, log: () => {} }));
    await expect(startMock({ store, controlToken: TOKEN, seed: 2, log: () => {} })).rejects.toThrow(
      /^pacu: the store postgres:\/\/postgres@127\.0\.0\.1:\d+\/\S+ was seeded from seed 1, .*--reset-store$/,
    );
  });

  it("a scenario's faults are installed once for the cluster, not once per replica", async () => {
    const scenario = {
      rules: [],
      faults: [{ operation: 'listUsers' as const, kind: 'status' as const, status: 503, times: 1 }],
    };
    const [a, b] = (await replicas(2, { scenario })) as [RunningMock, RunningMock];
    expect((await control(b, '/faults')).body).toHaveLength(1);
    const token = await tokenFor(a);
    const statuses = [
      (await getJson(`${b.url}/users`, token)).status,
      (await getJson(`${a.url}/users`, token)).status,
    ];
    expect(statuses).toEqual([503, 200]);
  });

  it('a journal a schema-2 database kept an entry a row is read and cleared per client after the migration', async () => {
    const store = await postgres.createDatabase();
    const database = store.split('/').at(-1);
    const first = await startMock({ store, controlToken: TOKEN, clock: 'manual', log: () => {} });
    running.push(first);
    const token = await tokenFor(first);
    for (const page of [1, 2]) await getJson(`${first.url}/users?page=${page}`, token);
    await control(first, '/requests');
    await first.close();
    running = running.filter((mock) => mock !== first);
    // The journal as schema 2 kept it: a row an entry.
    await postgres.sql(
      `ALTER TABLE pacu_journal RENAME TO batches;
       CREATE TABLE pacu_journal (seq bigserial PRIMARY KEY, at_ms bigint NOT NULL, client_id text, doc jsonb NOT NULL);
       INSERT INTO pacu_journal (at_ms, client_id, doc)
         SELECT (e->>'atMs')::float8::bigint, e->>'clientId', e::jsonb FROM batches, json_array_elements(doc) e ORDER BY seq;
       DROP TABLE batches; UPDATE pacu_schema SET version = 2;`,
      database,
    );
    const mock = await startMock({ store, controlToken: TOKEN, clock: 'manual', log: () => {} });
    running.push(mock);
    const paths = async (): Promise<string[]> =>
      ((await control(mock, '/requests?operation=listUsers')).body as Array<{ path: string }>).map(
        (entry) => entry.path,
      );
    expect(await paths()).toEqual(['/v3/users?page=1', '/v3/users?page=2']);
    expect(await postgres.sql('SELECT version FROM pacu_schema', database)).toContain('3');
    await getJson(`${mock.url}/users?page=3`, token);
    expect((await call(`${mock.url}/users?page=4`)).status).toBe(401);
    expect(await paths()).toEqual([
      '/v3/users?page=1',
      '/v3/users?page=2',
      '/v3/users?page=3',
      '/v3/users?page=4',
    ]);
    const clientId = ((await control(mock, '/requests')).body as Array<{ clientId: string }>).find(
      (entry) => entry.clientId,
    )?.clientId;
    await control(mock, `/reset?clientId=${clientId}`, { method: 'POST', body: '{}' });
    expect(await paths()).toEqual(['/v3/users?page=4']);
  });

  it("the journal past its size is pruned a replica's batch at a time, the newest kept", async () => {
    const [a] = (await replicas(1, { journalSize: 2 })) as [RunningMock];
    const token = await tokenFor(a);
    const paths = async (): Promise<string[]> =>
      ((await control(a, '/requests?operation=listUsers')).body as Array<{ path: string }>).map(
        (entry) => entry.path,
      );
    // Each read of the journal has the replica write its batch first: a batch an answer here.
    for (const page of [1, 2, 3, 4]) {
      await getJson(`${a.url}/users?page=${page}`, token);
      await paths();
    }
    await control(a, '/clock/advance', { method: 'POST', body: JSON.stringify({ seconds: 1 }) });
    expect(await paths()).toEqual(['/v3/users?page=3', '/v3/users?page=4']);
    const rows = await postgres.sql('SELECT count(*) FROM pacu_journal', lastDatabase);
    expect(rows.trim()).toBe('2');
  });

  it('a database made by a newer pacu is refused with one line', async () => {
    const store = await postgres.createDatabase();
    running.push(await startMock({ store, controlToken: TOKEN, log: () => {} }));
    await postgres.sql('UPDATE pacu_schema SET version = 99', store.split('/').at(-1));
    await expect(startMock({ store, controlToken: TOKEN, log: () => {} })).rejects.toThrow(
      /^pacu: the database was made by a newer pacu \(schema 99, this pacu knows 3\): upgrade pacu, or use another database$/,
    );
  });
});
