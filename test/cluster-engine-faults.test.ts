// Faults of the engine under a shared store: PostgreSQL stopped as a crash (`-m immediate`) and
// started again, and a replica killed with kill -9, each under load. Nothing acknowledged may be
// lost; while the database is away every answer is a prompt 503 with Retry-After and the envelope.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMock, startMock } from '../mock/index.ts';
import { startPostgres, type TestPostgres } from './helpers/postgres.ts';
import { call, postJson, type Reply, tokenFor, transferBody } from './mock-helpers.ts';
import { endOf, startCli } from './mock-process.ts';

const TOKEN = 'engine-faults-token';
let postgres: TestPostgres;
beforeAll(async () => {
  postgres = await startPostgres();
}, 60_000);
afterAll(() => postgres?.close());

/** What a load loop saw: the transfers acknowledged as made, and every other answer. */
interface Seen {
  made: Map<string, string>;
  others: Array<{ status: number; retryAfter: string | null; success: unknown; ms: number }>;
}

/** `loops` clients sending new transfers round robin over `urls` until `stop()` resolves. */
function load(urls: readonly string[], token: string, account: string, loops: number) {
  const seen: Seen = { made: new Map(), others: [] };
  let running = true;
  let sent = 0;
  const loop = async (): Promise<void> => {
    while (running) {
      const body = transferBody(account);
      const started = Date.now();
      let reply: Reply;
      try {
        reply = await postJson(`${urls[sent++ % urls.length]}/payments/usd/direct`, token, body);
      } catch {
        continue; // a replica killed under us: the request was never answered, nothing was promised
      }
      if (reply.status === 200 && reply.body.message === 'Transfer created')
        seen.made.set(String(body.reference), reply.body.data.transaction_id);
      else
        seen.others.push({
          status: reply.status,
          retryAfter: reply.headers.get('retry-after'),
          success: reply.body?.success,
          ms: Date.now() - started,
        });
    }
  };
  const all = Array.from({ length: loops }, loop);
  return {
    seen,
    async stop(): Promise<Seen> {
      running = false;
      await Promise.all(all);
      return seen;
    },
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Until the load has had `count` writes acknowledged: a busy machine gets there later, not never. */
async function acknowledged(seen: Seen, count: number): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (seen.made.size < count && Date.now() < deadline) await sleep(20);
}

/** Every acknowledged transfer, read back through `mock` by its reference. */
async function missing(mock: RunningMock, seen: Seen): Promise<string[]> {
  const stored = (await mock.control.dumpState()).transfers as Array<{
    record: { reference: string; transaction_id: string };
  }>;
  const byReference = new Map(stored.map((item) => [item.record.reference, item.record.transaction_id]));
  return [...seen.made]
    .filter(([reference, id]) => byReference.get(reference) !== id)
    .map(([reference]) => reference);
}

describe('faults of the engine (PostgreSQL store)', () => {
  it('a crash and restart of PostgreSQL under load: prompt 503s with Retry-After, recovery by itself, no acknowledged write lost', async () => {
    const store = await postgres.createDatabase();
    const replicas = [
      await startMock({ store, controlToken: TOKEN, log: () => {} }),
      await startMock({ store, controlToken: TOKEN, log: () => {} }),
    ];
    try {
      const [a] = replicas as [RunningMock];
      const token = await tokenFor(a);
      const card = await a.control.createPushToCard({ amount: 3 });
      const traffic = load(
        replicas.map((mock) => mock.url),
        token,
        a.seeded.merchantAccountId,
        6,
      );
      await acknowledged(traffic.seen, 20);
      await postgres.stop('immediate');
      await sleep(600);
      // A record that exists is never a 404 while the database is away: it is a 503.
      const read = await call(`${a.url}/payments/card/${card.transaction_id}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(read.status).toBe(503);
      await postgres.start();
      const deadline = Date.now() + 15_000;
      let back: Reply | undefined;
      while (Date.now() < deadline) {
        back = await call(`${a.url}/payments/card/${card.transaction_id}`, {
          headers: { authorization: `Bearer ${token}` },
        });
        if (back.status === 200) break;
        await sleep(100);
      }
      expect(back?.status).toBe(200);
      await sleep(300);
      const seen = await traffic.stop();
      expect(seen.made.size).toBeGreaterThan(10);
      expect(seen.others.length).toBeGreaterThan(0);
      for (const other of seen.others) {
        expect(other).toMatchObject({ status: 503, retryAfter: '1', success: false });
        expect(other.ms).toBeLessThan(8000);
      }
      expect(await missing(a, seen)).toEqual([]);
    } finally {
      await Promise.all(replicas.map((mock) => mock.close()));
    }
  }, 60_000);

  it('kill -9 of a replica under load loses no acknowledged write', async () => {
    const store = await postgres.createDatabase();
    const survivor = await startMock({ store, controlToken: TOKEN, log: () => {} });
    const victim = await startCli(['--store', store, '--control-token', TOKEN]);
    try {
      const token = await tokenFor(survivor);
      const traffic = load(
        [victim.info.url as string, survivor.url],
        token,
        survivor.seeded.merchantAccountId,
        6,
      );
      await acknowledged(traffic.seen, 20);
      const ended = endOf(victim.child);
      process.kill(Number(victim.info.pid), 'SIGKILL');
      expect((await ended).signal).toBe('SIGKILL');
      await sleep(200);
      const seen = await traffic.stop();
      expect(seen.made.size).toBeGreaterThan(10);
      expect(seen.others).toEqual([]);
      expect(await missing(survivor, seen)).toEqual([]);
    } finally {
      victim.child.kill('SIGKILL');
      await survivor.close();
    }
  }, 60_000);
});
