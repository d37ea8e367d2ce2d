// npm run bench: start-up, the mock under load beside bare node:http, the mock on a million stored
// transfers; `--only startup|load|plain|proxy|remote|cluster|instructions|redaction` runs one part (docs/performance.md).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { MOCK_NODE_FLAGS } from '../cli/mock-runtime.ts';
import { DEFAULT_SPEC_FILE } from '../spec/index.ts';
import { clusterRuns } from './cluster.ts';
import { instructionRuns } from './instructions.ts';
import { EXAMPLE_TRANSFER, mockToken, requests, row } from './load-requests.ts';
import { type StateDump, writeStateWithTransfers } from './million.ts';
import { PLAIN_TOKEN, plainRuns } from './plain.ts';
import { proxyRuns } from './proxy.ts';
import { redactionRuns } from './redaction.ts';
import { remoteRuns } from './remote.ts';
import { measureStartup, ratio } from './startup.ts';
import { LOAD_CPU, type MemoryFigures, SERVER_CPU, startPrism, startScript, type Target } from './targets.ts';
import { type LoadResult, measure, requireWrk } from './wrk.ts';

const { values: flags } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '32' },
    only: { type: 'string' },
    million: { type: 'string', default: '1000000' },
    rounds: { type: 'string' },
    // --only plain: every server started afresh for each round (a store that holds one round's work).
    fresh: { type: 'boolean', default: false },
    prism: { type: 'boolean', default: false },
    // A checkout of an earlier pacu, built (its dist/): its mock (or proxy) measured side by side, in the same run.
    baseline: { type: 'string' },
    // --only instructions: how many POSTs each server answers in its two counted runs.
    few: { type: 'string', default: '2000' },
    many: { type: 'string', default: '6000' },
    // A PostgreSQL database (emptied first): the mock on --store measured beside --state.
    pg: { type: 'string' },
  },
});
const seconds = Number(flags.duration);
const connections = Number(flags.connections);
const storedTransfers = Number(flags.million);
/** The mock's load targets with the journal on, as shares of bare node:http, and POST's p99: the newest asked for. */
const TARGETS = { 'POST /payments/usd/direct': 0.5, 'GET /users': 0.5 } as const;
const P99_TARGET_MS = 5;
/** The transfer's work done plainly, without the mock around it (bench/servers/essential-server.mjs, decision 201). */
const PLAIN = 'plain: a transfer on node:http';

async function loadRuns(): Promise<void> {
  requireWrk();
  const dir = mkdtempSync(path.join(tmpdir(), 'pacu-bench-'));
  const figures: Record<string, Record<string, LoadResult>> = {};
  // One server at a time: a mock left running after its turn keeps settling its transfers (and
  // journaling them) on core 0, which would be charged to the next server measured.
  const starts: Array<() => Promise<Target>> = [
    () => startScript('bare node:http', 'bench/servers/bare-server.mjs'),
    () => startScript(PLAIN, 'bench/servers/essential-server.mjs'),
    () => startScript('pacu mock, --state off', 'bench/servers/mock-server.mjs'),
    () => startScript('pacu mock, --state on', 'bench/servers/mock-server.mjs', [path.join(dir, 'on.jsonl')]),
  ];
  if (flags.prism) starts.push(() => startPrism(DEFAULT_SPEC_FILE));
  if (flags.pg) {
    const url = flags.pg;
    starts.push(() => startScript('pacu mock, --store postgres', 'bench/servers/mock-server.mjs', [url]));
  }
  const { baseline } = flags;
  if (baseline) {
    starts.splice(1, 0, () =>
      startScript(
        'pacu mock (baseline), --state off',
        'bench/servers/mock-server.mjs',
        [],
        SERVER_CPU,
        baseline,
      ),
    );
    starts.push(() =>
      startScript(
        'pacu mock (baseline), --state on',
        'bench/servers/mock-server.mjs',
        [path.join(dir, 'baseline-on.jsonl')],
        SERVER_CPU,
        baseline,
      ),
    );
  }
  console.log(
    `load: wrk -t1 -c${connections} -d${seconds}s on core ${LOAD_CPU}, each server alone on core 0 with ${MOCK_NODE_FLAGS.join(' ')} (as pacu mock runs)\n`,
  );
  let merchant = '';
  let dump: StateDump | undefined;
  let offClientId = '';
  const memory: Record<string, MemoryFigures> = {};
  for (const start of starts) {
    const target = await start();
    const isMock = target.name.startsWith('pacu mock');
    if (isMock) merchant ||= target.info.merchantAccountId as string;
    const token = isMock ? await mockToken(target) : target.name === PLAIN ? PLAIN_TOKEN : 'x';
    // The million-transfer file starts from a fresh mock's state (seeded data, clients), taken
    // before the load: after it, the dump would add the run's own transfers to the million and
    // its JSON would be charged to this mock's peak RSS.
    if (target.name === 'pacu mock, --state off') {
      dump = (await (await fetch(`${target.origin}/__pacu/state`)).json()) as StateDump;
      offClientId = target.info.clientId as string;
    }
    // Bare node:http (measured first) reads no body: the spec example's account stands in.
    const accountId = merchant || (EXAMPLE_TRANSFER.account_id as string);
    for (const [label, request] of Object.entries(requests(token, accountId))) {
      figures[label] ??= {};
      const result = await measure(target, request, connections, seconds, LOAD_CPU);
      (figures[label] as Record<string, LoadResult>)[target.name] = result;
      console.log(row(target.name, label, result));
    }
    memory[target.name] = await target.stop();
  }

  const file = path.join(dir, 'million.jsonl');
  console.log(`\nwriting ${storedTransfers} transfers to ${file} …`);
  await writeStateWithTransfers(file, dump as StateDump, storedTransfers, offClientId);
  const restartStarted = Date.now();
  const full = await startScript(`${storedTransfers} stored, --state on`, 'bench/servers/mock-server.mjs', [
    file,
    'keep-all',
  ]);
  const restartSeconds = (Date.now() - restartStarted) / 1000;
  const fullToken = await mockToken(full);
  const stored: Record<string, LoadResult> = {};
  for (const [label, request] of Object.entries(requests(fullToken, merchant))) {
    stored[label] = await measure(full, request, connections, seconds, LOAD_CPU);
    console.log(row(full.name, label, stored[label]));
  }
  const fullRss = await full.stop();
  rmSync(dir, { recursive: true, force: true });

  console.log(
    `\nratios to bare node:http (targets with the journal on: POST >= ${TARGETS['POST /payments/usd/direct']}, GET >= ${TARGETS['GET /users']}, p99 <= ${P99_TARGET_MS} ms)`,
  );
  const summary: Record<string, unknown> = {
    connections,
    seconds,
    storedTransfers,
    restartSeconds,
    runs: figures,
    stored,
  };
  for (const [label, byTarget] of Object.entries(figures)) {
    const base = byTarget['bare node:http']?.requestsPerSecond ?? 1;
    const ratios = Object.fromEntries(
      [...Object.entries(byTarget), [full.name, stored[label]] as const]
        .filter(([name]) => name !== 'bare node:http')
        .map(([name, result]) => [name, ratio(result?.requestsPerSecond ?? 0, base)]),
    );
    summary[`ratios ${label}`] = ratios;
    console.log(
      `  ${label.padEnd(28)} ${Object.entries(ratios)
        .map(([k, v]) => `${k} ${v}`)
        .join('  ')}`,
    );
  }
  // The mock's transfer beside the same work done plainly on node:http: what the mock itself adds.
  const posts = figures['POST /payments/usd/direct'] ?? {};
  const plain = posts[PLAIN]?.requestsPerSecond ?? 1;
  const ofPlain = Object.fromEntries(
    Object.entries(posts)
      .filter(([name]) => name.startsWith('pacu mock'))
      .map(([name, result]) => [name, ratio(result.requestsPerSecond, plain)]),
  );
  summary['POST shares of the plain server'] = ofPlain;
  console.log(
    `  POST as shares of the ${PLAIN}: ${Object.entries(ofPlain)
      .map(([k, v]) => `${k} ${v}`)
      .join('  ')}`,
  );
  // Every server should keep its core busy; one that does not was held back by the load generator.
  for (const [label, byTarget] of Object.entries(figures))
    for (const [name, result] of Object.entries(byTarget))
      if (result.serverCpu !== undefined && result.serverCpu < 0.9)
        console.log(
          `  warning: ${name} used ${Math.round(result.serverCpu * 100)}% of its core on ${label}: wrk, not the server, may have been the limit`,
        );
  const mib = (bytes?: number): string => `${Math.round((bytes ?? 0) / 2 ** 20)} MiB`;
  console.log(
    `  restart on ${storedTransfers} transfers: ${restartSeconds.toFixed(1)} s to listening (in process ${(Number(full.info.startMs) / 1000).toFixed(1)} s)`,
  );
  const peaks = Object.entries(memory).map(([name, figures]) => `${name} peak ${mib(figures.maxRssBytes)}`);
  console.log(
    `  RSS: ${peaks.join(', ')}, ${storedTransfers} stored peak ${mib(fullRss.maxRssBytes)}, after GC ${mib(fullRss.settledRssBytes)}`,
  );
  console.log(JSON.stringify(summary));
}

async function main(): Promise<void> {
  // --rounds: the proxy's rounds (default 1), or the startup part's (default 10).
  if (flags.only === 'proxy')
    return proxyRuns(connections, seconds, Number(flags.rounds ?? 1), flags.prism, flags.baseline);
  if (flags.only === 'remote') return remoteRuns();
  if (flags.only === 'plain')
    return plainRuns(connections, seconds, Number(flags.rounds ?? 5), flags.baseline, flags.fresh);
  if (flags.only === 'cluster') return clusterRuns(connections, seconds);
  if (flags.only === 'redaction') return redactionRuns(flags.baseline);
  if (flags.only === 'instructions')
    return instructionRuns(Number(flags.few), Number(flags.many), flags.baseline);
  if (flags.only !== 'load') {
    const startup = await measureStartup(DEFAULT_SPEC_FILE, Number(flags.rounds ?? 10));
    console.log(JSON.stringify({ startup }));
    if (flags.only === 'startup') return;
    console.log('');
  }
  await loadRuns();
}

await main();
