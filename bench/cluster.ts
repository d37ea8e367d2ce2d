// `--only cluster`: the mock on PostgreSQL (docs/guides/shared-mock.md), side by side in one run with
// the same mock on --state and with PostgreSQL's own `pgbench -N`; then one, two and three replicas
// behind nginx, with the CPU each part uses per answer. How it measures: docs/performance.md.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '../test/helpers/free-port.ts';
import { startNginx } from '../test/helpers/nginx.ts';
import { startPostgres, type TestPostgres } from '../test/helpers/postgres.ts';
import { findPostgres } from '../test/helpers/system-servers.ts';
import { startCli } from '../test/mock-process.ts';
import { EXAMPLE_TRANSFER, mockToken, requests } from './load-requests.ts';
import { pinTree, treeCpuSeconds } from './process-cpu.ts';
import { startRoundTripRelay } from './round-trips.ts';
import { LOAD_CPU, SERVER_CPU } from './targets.ts';
import { type LoadRequest, type LoadResult, measure, requireWrk } from './wrk.ts';

/** The issue's targets: shares of the same mock on --state, and of pgbench -N. */
const TARGETS = { getOfState: 0.5, postOfState: 0.25, postOfPgbench: 0.5 } as const;
const CONTROL_TOKEN = 'pacu-bench-control-token';
const GET = 'GET /users';
const POST = 'POST /payments/usd/direct';

/** A server side under load: the pids whose CPU counts, by name. */
interface Side {
  readonly origin: string;
  readonly parts: Readonly<Record<string, number>>;
}

/** One measured load: wrk's figures and each part's CPU per answer, in microseconds. */
interface Measured {
  readonly result: LoadResult;
  readonly cpuUs: Record<string, number>;
  /** The server core's busy share over the counted run: near 1 shows the servers, not wrk, set the rate. */
  readonly serverCore: number;
}

const round = (value: number, places = 2): number => Math.round(value * 10 ** places) / 10 ** places;

/**
 * Every side's warm-up before it is counted: at least this many answers (a slower side warmed for
 * the same time would still be compiling its hot path) and at least this long, past the 10 s in
 * which a WIRE transfer settles, so every side settles transfers as fast as it makes them while it
 * is counted (in steady state, not before its first settlements).
 */
const WARM_UP = { answers: 20_000, seconds: 12, most: 24 } as const;

/** wrk for `seconds` after {@link WARM_UP}, with each part's CPU read around the counted run. */
async function load(
  side: Side,
  request: LoadRequest,
  connections: number,
  seconds: number,
): Promise<Measured> {
  const target = { origin: side.origin, basePath: '/v3' };
  // Each warm-up run's references its own: the counted run must create transfers, not replay them.
  for (
    let warmed = 0, spent = 0;
    (warmed < WARM_UP.answers || spent < WARM_UP.seconds) && spent < WARM_UP.most;
    spent += 2
  )
    warmed += (await measure(target, request, connections, 2, LOAD_CPU, 0, 0, `warm${spent}`)).total;
  const before = Object.fromEntries(
    Object.entries(side.parts).map(([name, pid]) => [name, treeCpuSeconds(pid)]),
  );
  const result = await measure(target, request, connections, seconds, LOAD_CPU, 0);
  const wall = result.total / Math.max(1, result.requestsPerSecond);
  const cpuUs: Record<string, number> = {};
  let busy = 0;
  for (const [name, pid] of Object.entries(side.parts)) {
    const used = treeCpuSeconds(pid) - (before[name] ?? 0);
    busy += used;
    cpuUs[name] = Math.round((used * 1e6) / Math.max(1, result.total));
  }
  cpuUs.total = Object.values(cpuUs).reduce((sum, value) => sum + value, 0);
  return { result, cpuUs, serverCore: round(busy / Math.max(wall, 1e-9)) };
}

/** `pgbench -N` (insert, select, update a row by key) with `clients` clients on the load core. */
async function pgbench(
  pg: TestPostgres,
  clients: number,
  seconds: number,
): Promise<{ tps: number; cpuUs: number }> {
  const install = findPostgres();
  if (!install) throw new Error('pgbench: no PostgreSQL binaries');
  const url = await pg.createDatabase('pgbench');
  const bin = path.join(install.bin, 'pgbench');
  await promisify(execFile)(bin, ['-i', '-q', '-s', '1', url]);
  const run = (time: number) =>
    promisify(execFile)('taskset', [
      '-c',
      LOAD_CPU,
      bin,
      '-N',
      '-c',
      String(clients),
      '-j',
      '1',
      '-T',
      String(time),
      url,
    ]);
  await run(2);
  const server = pg.pid as number;
  const before = treeCpuSeconds(server);
  const { stdout } = await run(seconds);
  const used = treeCpuSeconds(server) - before;
  const tps = Number(/tps = ([\d.]+)/.exec(stdout)?.[1] ?? 0);
  const transactions = Number(/number of transactions actually processed: (\d+)/.exec(stdout)?.[1] ?? 1);
  return { tps: Math.round(tps), cpuUs: Math.round((used * 1e6) / transactions) };
}

/** `pacu mock` as users start it (the compiled bin), on the server core. */
interface Replica extends Side {
  readonly info: Record<string, string>;
  readonly port: number;
  stop(): Promise<void>;
}

async function replica(name: string, store: { url: string } | { stateFile: string }): Promise<Replica> {
  const port = await freePort();
  const args = [
    ...['--port', String(port), '--seed', '1'],
    ...('url' in store
      ? ['--store', store.url, '--control-token', CONTROL_TOKEN]
      : ['--state', store.stateFile]),
  ];
  const started = await startCli(args, { cpus: SERVER_CPU });
  const pid = Number(started.info.pid);
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    info: started.info,
    parts: { [name]: pid },
    stop: async () => {
      if (started.child.exitCode !== null) return;
      const exited = new Promise((resolve) => started.child.once('exit', resolve));
      started.child.kill('SIGTERM');
      await exited;
    },
  };
}

/** GET /users and a new transfer per request, through `side`, with a token `issuer` granted. */
async function bothLoads(
  side: Side,
  issuer: Replica,
  connections: number,
  seconds: number,
): Promise<Record<string, Measured>> {
  const token = await mockToken({ origin: side.origin, info: issuer.info });
  const loads = requests(token, issuer.info.merchantAccountId as string);
  const figures: Record<string, Measured> = {};
  for (const [label, request] of Object.entries(loads)) {
    figures[label] = await load(side, request, connections, seconds);
    const { result, cpuUs, serverCore } = figures[label] as Measured;
    console.log(
      `  ${label.padEnd(26)} ${String(result.requestsPerSecond).padStart(6)} req/s  p99 ${result.p99Ms.toFixed(1).padStart(5)} ms  CPU per answer ${Object.entries(
        cpuUs,
      )
        .map(([name, us]) => `${name} ${us} us`)
        .join(
          ', ',
        )}  server core ${Math.round(serverCore * 100)}%${result.non2xx || result.errors ? `  (non-2xx ${result.non2xx}, errors ${result.errors})` : ''}`,
    );
  }
  return figures;
}

/** Start `count` replicas on one database, nginx round robin in front, all on the server core. */
async function behindNginx(pg: TestPostgres, count: number, connections: number, seconds: number) {
  const url = await pg.createDatabase(`replicas_${count}`);
  const replicas: Replica[] = [];
  // One after another: the first creates the schema and seeds, the others find them.
  for (let index = 0; index < count; index++) replicas.push(await replica(`replica ${index + 1}`, { url }));
  const nginx = await startNginx(replicas.map((each) => each.port));
  pinTree(nginx.pid, SERVER_CPU);
  try {
    console.log(`${count} replica${count === 1 ? '' : 's'} behind nginx (round robin, keepalive 32):`);
    const parts = Object.assign(
      { nginx: nginx.pid, postgres: pg.pid as number },
      ...replicas.map((each) => each.parts),
    );
    return await bothLoads({ origin: nginx.origin, parts }, replicas[0] as Replica, connections, seconds);
  } finally {
    await nginx.close();
    for (const each of replicas) await each.stop();
  }
}

/** Requests of each kind, one at a time, whose round trips are counted. */
const ROUND_TRIP_SAMPLES = 60;
/** The pause after each: the replica's batched writes (journal, coverage) go out in it. */
const SETTLE_MS = 40;

interface TripFigures {
  /** Between the request sent and its answer read: what the answer waited for. */
  readonly answerPath: number;
  /** From the request to the next: the batched journal and coverage writes too (shared under load). */
  readonly all: number;
}

/**
 * Round trips per operation, on the wire: a replica whose store URL points at the relay, each kind
 * of request sent one at a time, less the trips the replica makes idle (its polls for due work)
 * over the same time.
 */
async function roundTrips(
  pg: TestPostgres,
): Promise<Record<string, TripFigures> & { idlePerSecond: number }> {
  const relay = await startRoundTripRelay(pg.port);
  const url = (await pg.createDatabase('round_trips')).replace(`:${pg.port}/`, `:${relay.port}/`);
  const mock = await replica('mock', { url });
  try {
    const basic = `Basic ${Buffer.from(`${mock.info.clientId}:${mock.info.clientSecret}`).toString('base64')}`;
    const token = await mockToken({ origin: mock.origin, info: mock.info });
    const bearer = { authorization: `Bearer ${token}` };
    const json = { ...bearer, 'content-type': 'application/json' };
    const transfer = (reference: string): string =>
      JSON.stringify({ ...EXAMPLE_TRANSFER, account_id: mock.info.merchantAccountId, reference });
    const kinds: Record<string, (index: number) => [string, RequestInit]> = {
      'POST /auth/token': () => [
        '/auth/token',
        {
          method: 'POST',
          headers: { authorization: basic, 'content-type': 'application/x-www-form-urlencoded' },
          body: 'grant_type=client_credentials&scope=card,us_account',
        },
      ],
      'GET /users': () => ['/users', { headers: bearer }],
      'GET /payments/card/{id}': () => [`/payments/card/${mock.info.pushToCardId}`, { headers: bearer }],
      'GET /cards/virtual/{id}': () => [`/cards/virtual/${mock.info.cardId}`, { headers: bearer }],
      'POST /payments/usd/direct (new)': (index) => [
        '/payments/usd/direct',
        { method: 'POST', headers: json, body: transfer(`RT-${index}`) },
      ],
      'POST /payments/usd/direct (replayed)': (index) => [
        '/payments/usd/direct',
        { method: 'POST', headers: json, body: transfer(`RT-${index}`) },
      ],
      'POST /accounts': () => [
        '/accounts',
        {
          method: 'POST',
          headers: json,
          body: JSON.stringify({ hold_balance: true, user_id: mock.info.userId }),
        },
      ],
    };
    // Every pool connection prepares its statements on first use: not what a request costs after.
    for (const make of Object.values(kinds))
      for (let index = 0; index < 20; index++) {
        const [path, init] = make(1000 + index);
        await (await fetch(`${mock.origin}/v3${path}`, init)).arrayBuffer();
      }
    const idleFrom = performance.now();
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const idlePerMs = relay.between(idleFrom, performance.now()) / (performance.now() - idleFrom);
    const figures: Record<string, TripFigures> = {};
    for (const [name, make] of Object.entries(kinds)) {
      let answerPath = 0;
      let all = 0;
      for (let index = 0; index < ROUND_TRIP_SAMPLES; index++) {
        const [path, init] = make(index);
        const sent = performance.now();
        const response = await fetch(`${mock.origin}/v3${path}`, init);
        await response.arrayBuffer();
        const answered = performance.now();
        if (response.status !== 200) throw new Error(`round trips: ${name} answered ${response.status}`);
        await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
        const next = performance.now();
        answerPath += relay.between(sent, answered) - idlePerMs * (answered - sent);
        all += relay.between(sent, next) - idlePerMs * (next - sent);
      }
      figures[name] = {
        answerPath: round(answerPath / ROUND_TRIP_SAMPLES),
        all: round(all / ROUND_TRIP_SAMPLES),
      };
    }
    return Object.assign(figures, { idlePerSecond: round(idlePerMs * 1000) });
  } finally {
    await mock.stop();
    await relay.close();
  }
}

export async function clusterRuns(connections: number, seconds: number): Promise<void> {
  requireWrk();
  const pg = await startPostgres({ settings: { max_connections: 300 } });
  pinTree(pg.pid as number, SERVER_CPU);
  const dir = mkdtempSync(path.join(tmpdir(), 'pacu-bench-cluster-'));
  try {
    console.log(
      `load average at the start: ${loadavg()
        .map((value) => value.toFixed(1))
        .join(', ')}`,
    );
    console.log(
      `cluster: wrk and pgbench on core ${LOAD_CPU}, ${connections} connections (clients), ${seconds} s after a warm-up of at least ${WARM_UP.answers} answers and ${WARM_UP.seconds} s (at most ${WARM_UP.most} s); every server (mock replicas, PostgreSQL, nginx) on core ${SERVER_CPU}; PostgreSQL ${findPostgres()?.version} with fsync off, synchronous_commit on (decision 185)\n`,
    );
    const ceiling = await pgbench(pg, connections, seconds);
    console.log(
      `pgbench -N -c ${connections} -j 1: ${ceiling.tps} tps, PostgreSQL CPU ${ceiling.cpuUs} us per transaction`,
    );
    const state = await replica('mock', { stateFile: path.join(dir, 'state.jsonl') });
    console.log('pacu mock --state FILE:');
    const onState = await bothLoads(state, state, connections, seconds).finally(() => state.stop());
    const single = await replica('mock', { url: await pg.createDatabase('single') });
    console.log('pacu mock --store postgres://…:');
    const onPostgres = await bothLoads(
      { origin: single.origin, parts: { ...single.parts, postgres: pg.pid as number } },
      single,
      connections,
      seconds,
    ).finally(() => single.stop());
    const trips = await roundTrips(pg);
    const { idlePerSecond, ...perKind } = trips;
    console.log(
      `database round trips per request, counted on the wire, one request at a time (targets: a read at most 1, a transfer at most 2, on the answer's path); idle, the replica makes ${idlePerSecond} a second:\n${Object.entries(
        perKind,
      )
        .map(
          ([name, figures]) =>
            `  ${name.padEnd(38)} answer's path ${figures.answerPath}, with the batched writes ${figures.all}`,
        )
        .join('\n')}`,
    );
    const scaled: Record<number, Record<string, Measured>> = {};
    for (const count of [1, 2, 3]) scaled[count] = await behindNginx(pg, count, connections, seconds);

    const rate = (figures: Record<string, Measured> | undefined, label: string): number =>
      figures?.[label]?.result.requestsPerSecond ?? 0;
    const ratios = {
      getOfState: round(rate(onPostgres, GET) / Math.max(1, rate(onState, GET))),
      postOfState: round(rate(onPostgres, POST) / Math.max(1, rate(onState, POST))),
      postOfPgbench: round(rate(onPostgres, POST) / Math.max(1, ceiling.tps)),
    };
    const verdict = (key: keyof typeof TARGETS): string =>
      `${ratios[key]} (target >= ${TARGETS[key]}: ${ratios[key] >= TARGETS[key] ? 'met' : 'NOT met'})`;
    console.log(
      `\none replica on PostgreSQL: GET ${verdict('getOfState')} of --state, transfers ${verdict('postOfState')} of --state, ${verdict('postOfPgbench')} of pgbench -N`,
    );
    // CPU per answer holds up better than rates on a shared host: the same ratios, by CPU spent.
    const cpu = (figures: Record<string, Measured> | undefined, label: string): number =>
      figures?.[label]?.cpuUs.total ?? 0;
    const byCpu = {
      getOfState: round(cpu(onState, GET) / Math.max(1, cpu(onPostgres, GET))),
      postOfState: round(cpu(onState, POST) / Math.max(1, cpu(onPostgres, POST))),
      postOfPgbench: round(ceiling.cpuUs / Math.max(1, cpu(onPostgres, POST))),
    };
    console.log(
      `  by CPU per answer (the baseline's CPU over PostgreSQL's mock and server): GET ${byCpu.getOfState} of --state, transfers ${byCpu.postOfState} of --state, ${byCpu.postOfPgbench} of a pgbench -N transaction`,
    );
    for (const label of [GET, POST])
      console.log(
        `  ${label}: total CPU per answer with 1, 2, 3 replicas behind nginx: ${[1, 2, 3].map((count) => `${scaled[count]?.[label]?.cpuUs.total} us`).join(', ')}`,
      );
    for (const [label, figures] of [
      ...Object.entries({ '--state': onState, postgres: onPostgres }),
      ...Object.entries(scaled).map(([count, figures]) => [`${count} behind nginx`, figures] as const),
    ] as const)
      for (const [request, measured] of Object.entries(figures))
        if (measured.serverCore < 0.9)
          console.log(
            `  warning: ${label}, ${request}: these servers kept their core ${Math.round(measured.serverCore * 100)}% busy: wrk, or other work on the host, not they, set the rate`,
          );
    const load = loadavg().map((value) => value.toFixed(1));
    console.log(
      `  load average at the end: ${load.join(', ')} (2 cores: above 2, other work shared the cores)`,
    );
    console.log(
      JSON.stringify({
        cluster: {
          connections,
          seconds,
          targets: TARGETS,
          ratios,
          byCpu,
          pgbench: ceiling,
          onState,
          onPostgres,
          roundTrips: trips,
          scaled,
          loadAverage: load,
        },
      }),
    );
  } finally {
    await pg.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
