// npm run bench: startup of `pacu --help` and `pacu mock` beside `node -e 0` and `prism mock`; then
// the pacu mock side by side with a bare node:http server (the ceiling) and `prism mock` (what users
// run instead), then the mock again with a million stored transfers. `--only startup` stops after
// the first part, `--only mock` skips the baselines of the second.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_SPEC_FILE, loadSpec } from '../spec/index.ts';
import { type LoadRequest, type LoadResult, measure } from './load.ts';
import { type StateDump, writeStateWithTransfers } from './million.ts';
import { measureStartup } from './startup.ts';
import { startPrism, startScript, type Target } from './targets.ts';

const { values: flags } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '32' },
    only: { type: 'string' },
    million: { type: 'string', default: '1000000' },
    rounds: { type: 'string', default: '10' },
  },
});
const seconds = Number(flags.duration);
const connections = Number(flags.connections);
const storedTransfers = Number(flags.million);
const onlyMock = flags.only === 'mock';
/** The spec's example transfer, sent WIRE with a fresh reference each time. */
const EXAMPLE_TRANSFER = (await loadSpec()).operation('usdTransfer').requestBody?.examples.ach as Record<
  string,
  unknown
>;

async function mockToken(target: Target): Promise<string> {
  const response = await fetch(`${target.origin}/v3/auth/token`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${target.info.clientId}:${target.info.clientSecret}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: 'grant_type=client_credentials&scope=card,us_account',
  });
  return ((await response.json()) as { data: { access_token: string } }).data.access_token;
}

function requests(
  token: string,
  accountId: string,
): Record<'GET /users' | 'POST /payments/usd/direct', LoadRequest> {
  const headers = { authorization: `Bearer ${token}` };
  let counter = 0;
  const run = `${process.pid}-${Date.now()}`;
  return {
    'GET /users': { method: 'GET', path: '/users', headers },
    'POST /payments/usd/direct': {
      method: 'POST',
      path: '/payments/usd/direct',
      headers: { ...headers, 'content-type': 'application/json' },
      body: () =>
        JSON.stringify({
          ...EXAMPLE_TRANSFER,
          account_id: accountId,
          transfer_type: 'WIRE',
          reference: `BENCH-${run}-${counter++}`,
        }),
    },
  };
}

const row = (name: string, label: string, result: LoadResult): string =>
  `${label.padEnd(28)} ${name.padEnd(22)} ${String(result.requestsPerSecond).padStart(8)} req/s  p50 ${String(result.p50Ms).padStart(4)} ms  p99 ${String(result.p99Ms).padStart(4)} ms${result.non2xx || result.errors ? `  (non-2xx ${result.non2xx}, errors ${result.errors})` : ''}`;
const ratio = (a: number, b: number): number => Math.round((a / b) * 100) / 100;

async function main(): Promise<void> {
  const startup = await measureStartup(DEFAULT_SPEC_FILE, Number(flags.rounds));
  console.log(JSON.stringify({ startup }));
  if (flags.only === 'startup') return;
  console.log('');
  const figures: Record<string, Record<string, LoadResult>> = {};
  const mock = await startScript('pacu mock', 'bench/mock-server.ts');
  const targets: Target[] = [mock];
  if (!onlyMock) {
    targets.push(await startScript('bare node:http', 'bench/bare-server.ts'));
    targets.push(await startPrism(DEFAULT_SPEC_FILE));
  }
  const token = await mockToken(mock);
  const merchant = mock.info.merchantAccountId as string;
  console.log(`pacu bench: ${connections} connections, ${seconds} s per run\n`);
  for (const [label, request] of Object.entries(requests(token, merchant))) {
    const byTarget: Record<string, LoadResult> = {};
    figures[label] = byTarget;
    for (const target of targets) {
      const result = await measure(target, request, connections, seconds);
      byTarget[target.name] = result;
      console.log(row(target.name, label, result));
    }
  }
  const dump = (await (await fetch(`${mock.origin}/__pacu/state`)).json()) as StateDump;
  const emptyRss = await mock.stop();
  for (const target of targets.slice(1)) await target.stop();

  const dir = mkdtempSync(path.join(tmpdir(), 'pacu-bench-'));
  const file = path.join(dir, 'million.jsonl');
  console.log(`\nwriting ${storedTransfers} transfers to ${file} …`);
  await writeStateWithTransfers(file, dump, storedTransfers, mock.info.clientId as string);
  const loadStarted = Date.now();
  const full = await startScript('pacu mock (1M)', 'bench/mock-server.ts', [file]);
  const loadSeconds = (Date.now() - loadStarted) / 1000;
  const fullToken = await mockToken(full);
  const stored: Record<string, LoadResult> = {};
  for (const [label, request] of Object.entries(requests(fullToken, merchant))) {
    stored[label] = await measure(full, request, connections, seconds);
    console.log(row(`${storedTransfers} stored`, label, stored[label]));
  }
  const fullRss = await full.stop();
  rmSync(dir, { recursive: true, force: true });

  const summary: Record<string, unknown> = {
    connections,
    seconds,
    storedTransfers,
    loadSeconds,
    emptyRssBytes: emptyRss,
    fullRssBytes: fullRss,
    loadedRssBytes: full.info.loadedRssBytes,
    loadedHeapBytes: full.info.loadedHeapBytes,
    runs: figures,
    stored,
  };
  console.log('\nratios');
  for (const [label, byTarget] of Object.entries(figures)) {
    const mine = byTarget['pacu mock']?.requestsPerSecond ?? 0;
    const bare = byTarget['bare node:http']?.requestsPerSecond;
    const prism = byTarget['prism mock']?.requestsPerSecond;
    const full1m = stored[label]?.requestsPerSecond ?? 0;
    const ratios = {
      ...(prism ? { vsPrism: ratio(mine, prism) } : {}),
      ...(bare ? { vsBare: ratio(mine, bare) } : {}),
      storedVsEmpty: ratio(full1m, mine),
    };
    summary[`ratios ${label}`] = ratios;
    console.log(
      `  ${label.padEnd(28)} ${Object.entries(ratios)
        .map(([k, v]) => `${k} ${v}`)
        .join('  ')}`,
    );
  }
  const mib = (bytes?: number): string => `${Math.round((bytes ?? 0) / 2 ** 20)} MiB`;
  console.log(`  state load ${loadSeconds.toFixed(1)} s`);
  console.log(
    `  RSS after the empty runs: peak ${mib(emptyRss.maxRssBytes)}, after GC ${mib(emptyRss.settledRssBytes)}`,
  );
  console.log(
    `  right after loading ${storedTransfers} transfers: RSS ${mib(Number(full.info.loadedRssBytes))}, heap ${mib(Number(full.info.loadedHeapBytes))}`,
  );
  console.log(
    `  RSS with ${storedTransfers} stored transfers (+ those the runs created): peak ${mib(fullRss.maxRssBytes)}, after GC ${mib(fullRss.settledRssBytes)}`,
  );
  console.log(JSON.stringify(summary));
}

await main();
