// `pacu mock --store` as users start it: PACU_STORE, --reset-store, --retain, the --json line of
// each replica, and one line with exit 2 for a store it cannot use.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock } from '../mock/index.ts';
import { freePort } from './helpers/free-port.ts';
import { startPostgres, type TestPostgres } from './helpers/postgres.ts';
import { runCli } from './helpers/run-cli.ts';
import { call } from './mock-helpers.ts';
import { endOf, startCli } from './mock-process.ts';

let postgres: TestPostgres;
beforeAll(async () => {
  postgres = await startPostgres();
}, 60_000);
afterAll(() => postgres?.close());

describe('pacu mock --store', () => {
  it('replicas started from PACU_STORE with the same --seed announce the same ids, each its own pid; --reset-store empties', async () => {
    const store = await postgres.createDatabase();
    const env = { ...process.env, PACU_STORE: store };
    const flags = ['--seed', '7', '--control-token', 'T', '--client', 'ci:secret'];
    const first = await startCli(flags, { env });
    const second = await startCli(flags, { env });
    try {
      const { pid: firstPid, url: firstUrl, control: firstControl, ...firstRest } = first.info;
      const { pid: secondPid, url: secondUrl, control: secondControl, ...secondRest } = second.info;
      expect(secondRest).toEqual(firstRest);
      expect(Object.keys(first.info)).toEqual([
        'url',
        'pid',
        'control',
        'clientId',
        'clientSecret',
        'scopes',
        'controlToken',
        'cardId',
        'cardTransactionId',
        'pushToCardId',
        'merchantAccountId',
        'userId',
      ]);
      expect(firstPid).not.toBe(secondPid);
      // The process that serves (what a crash drill kills): alive, and one per replica.
      expect(process.kill(Number(firstPid), 0)).toBe(true);
      // No launcher in between: the pid a supervisor started is the pid that serves.
      expect([Number(firstPid), Number(secondPid)]).toEqual([first.child.pid, second.child.pid]);
      const headers = { 'x-pacu-control-token': 'T', 'content-type': 'application/json' };
      const card = await call(`${firstControl}/payments/card`, {
        method: 'POST',
        headers,
        body: '{"amount":5}',
      });
      expect(card.status).toBe(200);
      expect((await call(`${secondControl}/state`, { headers })).body.pushToCard).toHaveLength(3);
      void [firstUrl, secondUrl];
    } finally {
      for (const started of [first, second]) {
        const ended = endOf(started.child);
        started.child.kill('SIGTERM');
        await ended;
      }
    }
    const again = await startCli([...flags, '--reset-store', '--retain', '24h'], { env });
    try {
      const headers = { 'x-pacu-control-token': 'T' };
      expect((await call(`${again.info.control}/state`, { headers })).body.pushToCard).toHaveLength(2);
    } finally {
      const ended = endOf(again.child);
      again.child.kill('SIGTERM');
      await ended;
    }
  }, 60_000);

  it('a store it cannot use is one line and exit 2, a database nobody serves within seconds, never its password', async () => {
    const nobody = await freePort();
    const started = Date.now();
    // The library's start waits for the refusing database while the CLI's starts below wait for theirs.
    const refused = expect(
      startMock({ store: `postgres://pacu:s3cret-pass@127.0.0.1:${nobody}/mock`, log: () => {} }),
    ).rejects.toThrow(/cannot reach the store .*connection refused/);
    const givenUp = refused.then(() => Date.now() - started);
    for (const [args, said] of [
      [
        ['--store', 'mysql://x@127.0.0.1/db'],
        /^pacu: --store takes memory: or postgres:\/\/USER@HOST:PORT\/DB, not mysql:…\n$/,
      ],
      [
        ['--reset-store'],
        /^pacu: --reset-store empties the database of --store URL \(or PACU_STORE\): give it too\n$/,
      ],
      [['--retain', 'soon'], /--retain takes a duration such as 15m, 24h or 7d, or none, not soon/],
      [
        ['--store', `postgres://postgres@127.0.0.1:${postgres.port}/no_such_database`],
        /^pacu: cannot open the store postgres:\/\/postgres@127\.0\.0\.1:\d+\/no_such_database: .*does not exist\n$/,
      ],
      [
        ['--store', `postgres://pacu:s3cret-pass@127.0.0.1:${nobody}/mock`],
        new RegExp(
          `^pacu: cannot reach the store postgres://pacu@127\\.0\\.0\\.1:${nobody}/mock: connection refused\\. Is PostgreSQL running\\?\\n$`,
        ),
      ],
    ] as const) {
      const { code, stderr } = await runCli(['mock', ...args]);
      expect({ code, stderr }).toEqual({ code: 2, stderr: expect.stringMatching(said) });
    }
    // A few seconds at most: a database starting in the same rollout gets two.
    expect(await givenUp).toBeLessThan(5_000);
  }, 60_000);
});
