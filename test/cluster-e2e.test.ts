// The shared mock end to end (docs/guides/shared-mock.md): three `pacu mock --store` processes (the
// compiled bin) on one real PostgreSQL, behind a real nginx running the guide's config, delivering
// signed webhooks to a real receiver. Loads are bounded in count; servers are shared by the file.
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ControlApiClient, createControlClient } from '../suites/index.ts';
import { freePort } from './helpers/free-port.ts';
import { startNginx, type TestNginx } from './helpers/nginx.ts';
import { startPostgres, type TestPostgres } from './helpers/postgres.ts';
import { call, getJson, postJson, type Reply, tokenFor, transferBody } from './mock-helpers.ts';
import { endOf, mockOf, type StartedCli, startCli } from './mock-process.ts';

const CONTROL_TOKEN = 'pacu-cluster-test-control-token';
const SECRET = `whsec_${Buffer.from('pacu cluster test webhook key 01').toString('base64')}`;
/** What every replica announces alike when they share a store and a seed. */
const SEEDED = [
  'clientId',
  'clientSecret',
  'cardId',
  'cardTransactionId',
  'pushToCardId',
  'merchantAccountId',
  'userId',
];

interface Delivery {
  readonly id: string;
  readonly type: string;
  readonly data: Record<string, unknown>;
  readonly verified: boolean;
  /** The sender's port: which replica sent it, through /proc. */
  readonly port: number;
  /** Answered 204 on a connection still open (a delivery held until its sender died was not). */
  answered: boolean;
  /** While held: answer it now. */
  release?: () => void;
}

interface Replica {
  readonly cli: StartedCli;
  readonly port: number;
  /** The replica's own base URL, `…/v3`, bypassing nginx. */
  readonly url: string;
  readonly control: ControlApiClient;
}

let pg: TestPostgres;
let store: string;
let nginx: TestNginx;
let receiver: Server;
let hookUrl: string;
const deliveries: Delivery[] = [];
/** While true, the receiver holds each delivery unanswered until the test releases it. */
let holding = false;
const replicas: Replica[] = [];
/** nginx's base URL, `…/v3`: the one address clients are given. */
let front: string;
let token: string;
let merchant: string;

async function startReplica(extra: string[] = []): Promise<Replica> {
  const port = await freePort();
  const cli = await startCli([
    ...['--store', store, '--port', String(port), '--seed', '7', '--clock', 'manual'],
    ...['--control-token', CONTROL_TOKEN, '--webhook-url', hookUrl, '--webhook-secret', SECRET],
    ...extra,
  ]);
  return {
    cli,
    port,
    url: `http://127.0.0.1:${port}/v3`,
    control: createControlClient(`http://127.0.0.1:${port}`, { controlToken: CONTROL_TOKEN }),
  };
}

async function stopReplica(replica: Replica): Promise<void> {
  const { child } = replica.cli;
  if (child.exitCode !== null || child.signalCode !== null) return;
  const ended = endOf(child);
  child.kill('SIGTERM');
  await ended;
}

/** Throw, with what it printed, when a replica has exited that nobody stopped. */
function replicasAlive(): void {
  for (const replica of replicas)
    if (replica.cli.child.exitCode !== null || replica.cli.child.signalCode !== null)
      throw new Error(
        `a replica exited (${replica.cli.child.exitCode ?? replica.cli.child.signalCode}): ${replica.cli.stderr().slice(-1500)}`,
      );
}

/** Wait for `done` to hold, checking on each turn of a short timer, at most `ms`; every replica must live. */
async function until(
  done: () => boolean | Promise<boolean>,
  ms = 10_000,
  what = 'the condition',
): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await done())) {
    replicasAlive();
    if (Date.now() > deadline) throw new Error(`${what} did not hold within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Which of `pids` holds the TCP connection whose local port is `port` (its socket's inode, in /proc). */
function ownerOf(port: number, pids: readonly number[]): number | undefined {
  const hex = `:${port.toString(16).toUpperCase().padStart(4, '0')}`;
  // A closed connection that used the same port lingers in TIME_WAIT with inode 0: only live ones count.
  const inodes = new Set(
    readFileSync('/proc/net/tcp', 'utf8')
      .split('\n')
      .map((line) => line.trim().split(/\s+/))
      .filter((fields) => fields[1]?.endsWith(hex) && fields[9] !== undefined && fields[9] !== '0')
      .map((fields) => `socket:[${fields[9]}]`),
  );
  if (inodes.size === 0) return undefined;
  return pids.find((pid) => {
    try {
      return readdirSync(`/proc/${pid}/fd`).some((fd) => {
        try {
          return inodes.has(readlinkSync(`/proc/${pid}/fd/${fd}`));
        } catch {
          return false;
        }
      });
    } catch {
      return false;
    }
  });
}

beforeAll(async () => {
  pg = await startPostgres();
  store = await pg.createDatabase();
  receiver = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      const headers = Object.fromEntries(
        Object.entries(request.headers).map(([name, value]) => [name, String(value)]),
      );
      let verified = true;
      try {
        new Webhook(SECRET).verify(body, headers);
      } catch {
        verified = false;
      }
      const event = JSON.parse(body) as { type: string; data: Record<string, unknown> };
      const delivery: Delivery = {
        id: headers['webhook-id'] ?? '',
        type: event.type,
        data: event.data,
        verified,
        port: request.socket.remotePort ?? 0,
        answered: false,
      };
      delivery.release = () => {
        delivery.release = undefined;
        if (response.destroyed || request.socket.destroyed) return;
        delivery.answered = true;
        response.writeHead(204).end();
      };
      deliveries.push(delivery);
      if (!holding) delivery.release();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  // Started together: the first to reach the empty database seeds it, the others find its records.
  replicas.push(...(await Promise.all([0, 1, 2].map(() => startReplica()))));
  nginx = await startNginx(replicas.map((replica) => replica.port));
  front = `${nginx.origin}/v3`;
  const info = replicas[0]?.cli.info ?? {};
  token = await tokenFor(mockOf({ ...info, url: front }));
  merchant = info.merchantAccountId as string;
}, 60_000);

afterAll(async () => {
  await nginx?.close();
  await Promise.all(replicas.map(stopReplica));
  await new Promise((resolve) => receiver?.close(resolve));
  await pg?.close();
});

interface Answer {
  readonly status: number;
  readonly sentAt: number;
  readonly ms: number;
  readonly retryAfter: string | null;
  readonly body: unknown;
}

interface Load {
  /** Transfers answered 200, with the id and the mock time they were given. */
  readonly acknowledged: Array<{ body: Record<string, unknown>; id: string; date: string }>;
  readonly answers: Answer[];
  stop(): Promise<void>;
}

/**
 * Clients through nginx, each creating transfers one after another (and reading the user list, with
 * `reads`). With `retry`, a transfer that got no 200 is sent again with the same reference until it
 * does, as a client should; a refused request waits a little before the next, never Retry-After.
 */
function startLoad(options: { lanes: number; retry: boolean; reads?: boolean }): Load {
  const acknowledged: Load['acknowledged'] = [];
  const answers: Answer[] = [];
  let stopping = false;
  const run = Date.now().toString(36);
  const send = async (method: 'GET' | 'POST', path: string, body?: unknown): Promise<Answer> => {
    const sentAt = Date.now();
    try {
      const response = await fetch(`${front}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        ...(body ? { body: JSON.stringify(body) } : {}),
        signal: AbortSignal.timeout(15_000),
      });
      const text = await response.text();
      let json: unknown = text;
      try {
        json = JSON.parse(text);
      } catch {}
      const answer = {
        status: response.status,
        sentAt,
        ms: Date.now() - sentAt,
        retryAfter: response.headers.get('retry-after'),
        body: json,
      };
      answers.push(answer);
      return answer;
    } catch {
      const answer = { status: 0, sentAt, ms: Date.now() - sentAt, retryAfter: null, body: undefined };
      answers.push(answer);
      return answer;
    }
  };
  const lane = async (lane: number): Promise<void> => {
    for (let index = 0; !stopping; index++) {
      const body = transferBody(merchant, { reference: `LOAD-${run}-${lane}-${index}` });
      for (;;) {
        const answer = await send('POST', '/payments/usd/direct', body);
        const data = (answer.body as Reply['body'])?.data;
        if (answer.status === 200)
          acknowledged.push({ body, id: data?.transaction_id, date: data?.transaction_date });
        if (answer.status !== 200) await new Promise((resolve) => setTimeout(resolve, 50));
        if (answer.status === 200 || !options.retry || stopping) break;
      }
      if (options.reads && !stopping) {
        const read = await send('GET', '/users');
        if (read.status !== 200) await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
  };
  const lanes = Array.from({ length: options.lanes }, (_, index) => lane(index));
  return {
    acknowledged,
    answers,
    stop: async () => {
      stopping = true;
      await Promise.all(lanes);
    },
  };
}

/** Each acknowledged transfer, sent again through `through`, answers with the id it was given. */
async function lostOf(load: Load, through: readonly Replica[]): Promise<string[]> {
  const lost: string[] = [];
  for (const [index, { body, id }] of load.acknowledged.entries()) {
    const again = await postJson(
      `${(through[index % through.length] as Replica).url}/payments/usd/direct`,
      token,
      body,
    );
    if (again.status !== 200 || again.body.data.transaction_id !== id)
      lost.push(`${body.reference}: ${id}, now ${again.status} ${again.body?.data?.transaction_id}`);
  }
  return lost;
}

/** The replicas in turn, starting at `step`: each request of a sequence lands on another process. */
const turn = (step: number): Replica => replicas[step % replicas.length] as Replica;

/** When each outage began and ended. */
const outages: Partial<Record<'immediate' | 'fast', { down: number; up: number }>> = {};

/** Under `load`: the database stopped (`mode`), answers taken while it is down, started again, recovery seen. */
async function outage(load: Load, mode: 'immediate' | 'fast'): Promise<void> {
  const card = await turn(0).control.createPushToCard({ amount: 3 });
  await until(() => load.acknowledged.length >= 20, 15_000, '20 transfers before the stop');
  // Their settlements fall due at once: a replica is mid-transaction when the database goes.
  void turn(0)
    .control.advanceClock(11)
    .catch(() => undefined);
  await pg.stop(mode);
  const down = Date.now();
  await until(
    () => load.answers.filter((answer) => answer.sentAt > down).length >= 16,
    15_000,
    'answers while down',
  );
  // A record that exists is never a 404 while the database is away: it is a 503.
  expect((await getJson(`${front}/payments/card/${card.transaction_id}`, token)).status, mode).toBe(503);
  // Taken before the start: the server takes connections a little before start() sees it ready.
  const up = Date.now();
  await pg.start();
  await until(
    () => load.answers.some((answer) => answer.sentAt > up && answer.status === 200),
    20_000,
    `recovery after a ${mode} stop`,
  );
  const atRecovery = load.acknowledged.length;
  await until(() => load.acknowledged.length >= atRecovery + 10, 15_000, 'transfers after recovery');
  outages[mode] = { down, up };
}

describe('three replicas on one PostgreSQL behave as one mock', () => {
  it('announce the same seeded records and demo client, whoever seeded the database', () => {
    const announced = replicas.map((replica) =>
      Object.fromEntries(SEEDED.map((key) => [key, replica.cli.info[key]])),
    );
    expect(announced[0]?.merchantAccountId).toMatch(/\S/);
    expect(announced[1]).toEqual(announced[0]);
    expect(announced[2]).toEqual(announced[0]);
  });

  it('take a token issued by any replica, and read on the next request what another just wrote', async () => {
    const user = replicas[0]?.cli.info.userId as string;
    for (let step = 0; step < 12; step++) {
      const issued = await tokenFor(mockOf({ ...turn(step).cli.info, url: turn(step).url }));
      const account = await postJson(`${turn(step + 1).url}/accounts`, issued, {
        hold_balance: true,
        user_id: user,
      });
      expect(account.status, JSON.stringify(account.body)).toBe(200);
      // The account just made through one process funds a transfer through the next.
      const body = transferBody(account.body.data.account_id);
      const made = await postJson(`${turn(step + 2).url}/payments/usd/direct`, issued, body);
      expect(made.status, JSON.stringify(made.body)).toBe(200);
      const again = await postJson(`${turn(step).url}/payments/usd/direct`, issued, body);
      expect(again.body.data.transaction_id).toBe(made.body.data.transaction_id);
      const card = await turn(step + 1).control.createPushToCard({ amount: 10 + step });
      const read = await getJson(`${turn(step + 2).url}/payments/card/${card.transaction_id}`, issued);
      expect(read.status).toBe(200);
      expect(read.body.data.transaction_id).toBe(card.transaction_id);
    }
  });

  it('make one transaction of a storm of same-reference transfers spread over the replicas', async () => {
    const body = transferBody(merchant, { reference: `STORM-${Date.now()}` });
    const storm = await Promise.all(
      Array.from({ length: 45 }, (_, index) =>
        postJson(`${turn(index).url}/payments/usd/direct`, token, body),
      ),
    );
    expect(storm.map((reply) => reply.status)).toEqual(storm.map(() => 200));
    expect(new Set(storm.map((reply) => reply.body.data.transaction_id)).size).toBe(1);
    // The reference reused with another body: refused as one mock refuses it, through every replica.
    for (const replica of replicas) {
      const reused = await postJson(`${replica.url}/payments/usd/direct`, token, { ...body, amount: 1.5 });
      expect(reused.status).toBe(409);
      expect(reused.body).toEqual({
        success: false,
        message: expect.stringContaining(body.reference as string),
      });
    }
  });

  it('apply faults and resets set through one replica on all, and show the whole traffic through any', async () => {
    const client = { clientId: `journal-${Date.now()}`, clientSecret: 'journal-probe-secret' };
    await turn(0).control.addClient({ ...client, scopes: ['card', 'us_account'] });
    const probe = await tokenFor(mockOf({ ...turn(1).cli.info, url: turn(1).url }), {
      ...client,
      scopes: [],
    });
    await turn(2).control.addFault({
      operation: 'listUsers',
      kind: 'status',
      status: 503,
      times: 3,
      clientId: client.clientId,
    });
    const statuses: number[] = [];
    for (let step = 0; step < 4; step++)
      statuses.push((await getJson(`${turn(step).url}/users`, probe)).status);
    expect(statuses).toEqual([503, 503, 503, 200]);
    for (const replica of replicas) {
      const journal = await replica.control.requests({ clientId: client.clientId, operation: 'listUsers' });
      expect(journal.map((entry) => entry.status)).toEqual([503, 503, 503, 200]);
    }
    const transfer = transferBody(merchant, { reference: `RESET-${Date.now()}` });
    const first = await postJson(`${turn(0).url}/payments/usd/direct`, probe, transfer);
    await turn(1).control.reset({ clientId: client.clientId });
    const afterReset = await postJson(`${turn(2).url}/payments/usd/direct`, probe, transfer);
    expect(afterReset.status).toBe(200);
    expect(afterReset.body.data.transaction_id).not.toBe(first.body.data.transaction_id);
    // Coverage counts every replica's answers, and a reset does not clear it.
    const coverage = await turn(2).control.coverage();
    const listUsers = coverage.operations.find((operation) => operation.operationId === 'listUsers');
    expect(listUsers?.statuses['503']).toBeGreaterThanOrEqual(3);
  });

  it('guard the control API with the control token on every replica and behind nginx', async () => {
    for (const origin of [...replicas.map((replica) => `http://127.0.0.1:${replica.port}`), nginx.origin]) {
      expect((await call(`${origin}/__pacu/ids`)).status).toBe(401);
      expect(
        (await call(`${origin}/__pacu/ids`, { headers: { 'x-pacu-control-token': CONTROL_TOKEN } })).status,
      ).toBe(200);
    }
    // Through nginx under a name of its own, as a shared mock is reached: the token, not the Host, guards.
    const named = async (path: string, token?: string): Promise<number> => {
      const answer = await request(`${nginx.origin}${path}`, {
        headers: { host: 'pacu-mock.example.test', ...(token ? { 'x-pacu-control-token': token } : {}) },
      });
      await answer.body.dump();
      return answer.statusCode;
    };
    expect(await named('/__pacu/ids')).toBe(401);
    expect(await named('/__pacu/ids', CONTROL_TOKEN)).toBe(200);
    expect(await named('/v3/users')).toBe(401);
  });

  it('loses no acknowledged transfer, and no webhook, when a replica is killed with kill -9 mid-delivery under load', async () => {
    // Deliveries are held unanswered, so the replica that claimed one can be caught in the act.
    holding = true;
    const made: string[] = [];
    for (let index = 0; index < 4; index++)
      made.push(
        (await postJson(`${front}/payments/usd/direct`, token, transferBody(merchant))).body.data
          .transaction_id,
      );
    await turn(0).control.advanceClock(11);
    const heldOf = (): Delivery[] =>
      deliveries.filter((delivery) => made.includes(delivery.data.transaction_id as string));
    await until(() => heldOf().length > 0, 10_000, 'a delivery of the settled transfers');
    const pids = replicas.map((replica) => Number(replica.cli.info.pid));
    const victimPid = ownerOf((heldOf()[0] as Delivery).port, pids);
    const victim = replicas.find((replica) => Number(replica.cli.info.pid) === victimPid);
    expect(victim, 'the replica delivering').toBeDefined();
    const victimHeld = heldOf().filter((delivery) => ownerOf(delivery.port, pids) === victimPid);
    expect(victimHeld.length).toBeGreaterThan(0);
    holding = false;
    for (const delivery of heldOf()) if (!victimHeld.includes(delivery)) delivery.release?.();
    // Killed before its delivery times out: the claim stays its own until the lease runs out.
    const load = startLoad({ lanes: 8, retry: true });
    const chosen = Date.now();
    await until(
      () => load.acknowledged.length >= 20 || Date.now() - chosen > 2_000,
      15_000,
      'load before the kill',
    );
    const gone = endOf((victim as Replica).cli.child);
    // The serving process itself, not the launcher in front of it.
    process.kill(victimPid as number, 'SIGKILL');
    expect((await gone).signal).toBe('SIGKILL');
    replicas.splice(replicas.indexOf(victim as Replica), 1);
    const atKill = load.acknowledged.length;
    await until(() => load.acknowledged.length >= atKill + 40, 15_000, '40 transfers after the kill');
    await load.stop();
    // nginx answers 502 for what was in flight to the killed replica, and sends it nowhere else.
    expect(load.answers.filter((answer) => answer.status !== 200 && answer.status !== 502)).toEqual([]);
    expect(await lostOf(load, replicas)).toEqual([]);
    // What the dead replica was delivering is delivered by another once its lease is out, same id.
    const answered = (id: string): boolean =>
      deliveries.some((delivery) => delivery.answered && delivery.data.transaction_id === id);
    await until(() => made.every(answered), 30_000, 'every settled transfer announced');
    for (const held of victimHeld) {
      expect(held.answered).toBe(false);
      const again = deliveries.filter(
        (delivery) => delivery.answered && delivery.data.transaction_id === held.data.transaction_id,
      );
      expect(again.map((delivery) => delivery.id)).toEqual([held.id]);
    }
    // The killed attempt was never recorded: once the redelivery's is (it follows the receiver's
    // answer), the cluster's record of each held event is one delivery.
    let outcomes: string[][] = [];
    await until(
      async () => {
        const attempts = await turn(0).control.attempts();
        outcomes = victimHeld.map((held) =>
          attempts.filter((attempt) => attempt.eventId === held.id).map((attempt) => attempt.outcome),
        );
        return outcomes.every((outcome) => outcome.length > 0 && !outcome.includes('pending'));
      },
      10_000,
      'the redeliveries recorded',
    );
    expect(outcomes).toEqual(victimHeld.map(() => ['delivered']));
  });

  it('answers 503 with Retry-After while PostgreSQL is down, and comes back with every acknowledged write', async () => {
    for (const mode of ['immediate', 'fast'] as const) {
      const load = startLoad({ lanes: 6, retry: false, reads: true });
      try {
        await outage(load, mode);
      } finally {
        await load.stop();
      }
      const { down, up } = outages[mode] as { down: number; up: number };
      const whileDown = load.answers.filter(
        (answer) => answer.sentAt > down && answer.sentAt + answer.ms < up,
      );
      expect(whileDown.length, mode).toBeGreaterThan(5);
      for (const answer of whileDown) {
        expect(answer.status, mode).toBe(503);
        expect(answer.retryAfter, mode).toBe('1');
        expect(answer.body, mode).toEqual({ success: false, message: expect.any(String) });
      }
      expect(
        load.answers.filter((answer) => answer.status !== 200 && answer.status !== 503),
        mode,
      ).toEqual([]);
      expect(Math.max(...load.answers.map((answer) => answer.ms)), mode).toBeLessThan(5_000);
      expect(await lostOf(load, replicas), mode).toEqual([]);
      // Every replica rode the outage out: none exited.
      replicasAlive();
    }
  });

  it('move every replica with a manual clock advanced through one while the others take transfers: it answers after the work it found, and what was made meanwhile settles right after, once', async () => {
    const before = await Promise.all(replicas.map((replica) => replica.control.clock()));
    const load = startLoad({ lanes: 6, retry: false });
    let target = 0;
    try {
      await until(() => load.acknowledged.length >= 60, 15_000, '60 transfers before the advance');
      // The clock moves while requests keep coming: the advance still answers, promptly (decision 165).
      const advanced = await call(`http://127.0.0.1:${turn(1).port}/__pacu/clock/advance`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-pacu-control-token': CONTROL_TOKEN },
        body: JSON.stringify({ seconds: 11 }),
        signal: AbortSignal.timeout(10_000),
      }).catch((error: Error) => ({ status: 0, body: error.message }));
      expect(advanced.status, JSON.stringify(advanced.body)).toBe(200);
      target = advanced.body.epochMs;
    } finally {
      await load.stop();
    }
    const after = await Promise.all(replicas.map((replica) => replica.control.clock()));
    for (const [index, clock] of after.entries())
      expect(Date.parse(clock.now) - Date.parse(before[index]?.now ?? '')).toBe(11_000);
    // Every transfer whose settlement (a WIRE's 10 s) fell due by the target, made before the
    // advance or while it ran, is settled and announced once.
    const due = load.acknowledged
      .filter((acknowledged) => Date.parse(acknowledged.date) + 10_000 <= target)
      .map((acknowledged) => acknowledged.id);
    expect(due.length).toBeGreaterThanOrEqual(60);
    const settled = (): Delivery[] =>
      deliveries.filter(
        (delivery) =>
          delivery.type === 'usd_transfer.successful' && due.includes(delivery.data.transaction_id as string),
      );
    await until(() => settled().length >= due.length, 10_000, 'one webhook per settled transfer');
    expect(new Set(settled().map((delivery) => delivery.data.transaction_id)).size).toBe(due.length);
    expect(settled().every((delivery) => delivery.verified)).toBe(true);
    // p2p.validated is sent the first time a user's status is read, however many replicas read it.
    const user = replicas[0]?.cli.info.userId as string;
    await Promise.all(replicas.map((replica) => getJson(`${replica.url}/p2p/status/${user}`, token)));
    await until(
      () => deliveries.some((delivery) => delivery.type === 'p2p.validated'),
      10_000,
      'p2p.validated',
    );
  });

  it('gave each webhook event one id, and every delivery of an id the same event', () => {
    const byId = new Map<string, string>();
    for (const delivery of deliveries) {
      const event = JSON.stringify([delivery.type, delivery.data]);
      expect(byId.get(delivery.id) ?? event).toBe(event);
      byId.set(delivery.id, event);
    }
    const events = new Set([...byId.values()]);
    expect(events.size).toBe(byId.size);
    // Delivery is at least once (Standard Webhooks): an id answered twice is said, not failed, since
    // this file kills a replica and stops the database mid-delivery. Each id still names one event.
    const answered = deliveries.filter((delivery) => delivery.answered).map((delivery) => delivery.id);
    const twice = answered.filter((id, at) => answered.indexOf(id) !== at);
    const senders = (id: string) => deliveries.filter((d) => d.id === id && d.answered).map((d) => d.port);
    if (twice.length > 0)
      console.warn(
        `webhook ids answered more than once: ${JSON.stringify(twice.map((id) => [id, senders(id)]))}`,
      );
    expect(deliveries.every((delivery) => delivery.verified)).toBe(true);
  });
});
