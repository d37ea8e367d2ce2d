// `--only proxy`: what pacu proxy (judging and recording to a HAR) costs, against the mock it fronts.
//
// The server under test gets core 0, as in the mock's bench: the direct runs put a pacu mock there,
// the proxied runs put the proxy there, with its upstream (a second, identical mock: a stand-in for a
// sandbox elsewhere, whose CPU is not the proxy's) on core 1 beside wrk. Sharing core 0 between the
// proxy and its upstream measured the co-tenancy instead: a do-nothing Node proxy on undici (status,
// headers and body piped, nothing judged or kept) reached 0.27 of direct that way on GET /users.
//
// Side by side on core 0, against the same upstream: the bare proxy (bench/servers/bare-proxy.mjs:
// node:http and undici forwarding, nothing judged or recorded), the floor any Node proxy stands on.
// The two proxies take turns going first, round by round.
//
// Two loads, 32 connections each:
// - saturating (every connection sends its next request as the answer comes): the throughput ratio.
//   Here a closed loop's latency is its queue (Little: connections / rate), so p99 follows the rate;
//   it is printed, not held to the latency target;
// - paced (each connection waits a random 0 to 2 x PACE_MS before each request, about 32 / PACE_MS
//   requests per ms, well under every server's rate): the latency the proxy adds to an exchange,
//   the p99 target.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { mockToken, requests, row } from './load-requests.ts';
import { median } from './startup.ts';
import { LOAD_CPU, SERVER_CPU, startScript, type Target } from './targets.ts';
import { type LoadResult, measure, requireWrk } from './wrk.ts';

/** The issue's targets at 32 connections, recording and judging on. */
const RATIO_TARGET = 0.5;
const ADDED_P99_TARGET_MS = 2;
/** The paced load's wait before each request, per connection. */
const PACE_MS = 16;

const DIRECT = 'pacu mock (direct)';
const BARE = 'bare proxy → mock';
const THROUGH = 'pacu proxy → mock';
/**
 * Under the paced load the upstream is also measured direct, before the first proxy, between the
 * two and after the second: what a proxy adds is its p99 over the mean of the upstream's just
 * before and just after it. The upstream's own tail moves as POSTs fill its state (its young
 * collections grow with it), so a proxy measured after a single direct run was charged for that
 * drift; the mean of the two sides cancels a steady one.
 */
const UPSTREAM_DIRECT = ['upstream direct, first', 'upstream direct, between', 'upstream direct, last'];

/** A figure to two decimals, as the bench prints them. */
const hundredths = (value: number): number => Math.round(value * 100) / 100;

/** A load run: the target, and the token and merchant account its requests carry. */
type Run = [Target, string, string];

/** One round's figures per request: what the targets judge, beside the bare proxy's and the CPU per answer. */
const FIGURES = [
  'ratio',
  'addedP99Ms',
  'bareRatio',
  'bareAddedP99Ms',
  'mockCpuUs',
  'bareCpuUs',
  'proxyCpuUs',
] as const;
type Figures = Record<(typeof FIGURES)[number], number>;
type RoundFigures = Record<string, Figures>;

/**
 * `rounds` rounds, each on fresh servers, then the median of each figure: on a noisy host one
 * round's added p99 moves by several ms (the direct mock's own p99 does); a median over rounds less.
 */
export async function proxyRuns(connections: number, seconds: number, rounds = 1): Promise<void> {
  const all: RoundFigures[] = [];
  for (let round = 1; round <= rounds; round++) {
    if (rounds > 1) console.log(`\nround ${round} of ${rounds}`);
    all.push(await proxyRound(connections, seconds, round));
  }
  if (rounds === 1) return;
  console.log(
    `\nmedians of ${rounds} rounds (targets: throughput >= ${RATIO_TARGET}; paced, added p99 <= ${ADDED_P99_TARGET_MS} ms)`,
  );
  const medians: RoundFigures = {};
  for (const label of Object.keys(all[0] ?? {})) {
    const figures = Object.fromEntries(
      FIGURES.map((key) => [key, hundredths(median(all.map((round) => round[label]?.[key] ?? 0)))]),
    ) as Figures;
    medians[label] = figures;
    console.log(
      `  ${label.padEnd(28)} throughput ratio ${figures.ratio} (bare ${figures.bareRatio})  paced added p99 ${figures.addedP99Ms} ms (bare ${figures.bareAddedP99Ms} ms)  CPU per answer: mock ${figures.mockCpuUs}, bare ${figures.bareCpuUs}, pacu ${figures.proxyCpuUs} us`,
    );
  }
  console.log(JSON.stringify({ proxyMedians: { rounds, ...medians } }));
}

async function proxyRound(connections: number, seconds: number, round = 1): Promise<RoundFigures> {
  requireWrk();
  const dir = mkdtempSync(path.join(tmpdir(), 'pacu-bench-proxy-'));
  const har = path.join(dir, 'bench.har');
  const direct = await startScript(DIRECT, 'bench/servers/mock-server.mjs', [], SERVER_CPU);
  // One upstream for both proxies (with one each, core 1 held two mocks that had each taken a POST
  // flood, and the saturated POST runs found the proxy's core 83-85% busy: the load core was the
  // limit). The proxies take turns going first, and under the paced load each is measured between
  // two runs of the upstream alone, so neither is charged for the state the other's runs left there.
  const upstream = await startScript('upstream mock', 'bench/servers/mock-server.mjs', [], LOAD_CPU);
  const bare = await startScript(
    BARE,
    'bench/servers/bare-proxy.mjs',
    [upstream.info.url as string],
    SERVER_CPU,
  );
  const proxy = await startScript(
    THROUGH,
    'bench/servers/proxy-server.mjs',
    [upstream.info.url as string, har],
    SERVER_CPU,
  );
  console.log(
    `proxy: wrk -t1 -c${connections} -d${seconds}s on core ${LOAD_CPU}; on core ${SERVER_CPU} the mock (direct) or the proxy, whose upstream mock runs on core ${LOAD_CPU}; the proxy judges and records to a HAR\n`,
  );
  const figures: Record<string, Record<string, LoadResult>> = {};
  // The two proxies take turns going first, round by round.
  const order = round % 2 === 0 ? [THROUGH, BARE] : [BARE, THROUGH];
  try {
    // The mocks seed the same demo client; each target gets a token its own (upstream) mock issued.
    const upstreamToken = await mockToken(upstream);
    const upstreamAccount = upstream.info.merchantAccountId as string;
    const viaUpstream = (target: Target): Run => [target, upstreamToken, upstreamAccount];
    const upstreamRuns = UPSTREAM_DIRECT.map((name) => viaUpstream({ ...upstream, name }));
    const [first, second] = order.map((name) =>
      viaUpstream({ ...(name === BARE ? bare : proxy), info: upstream.info }),
    ) as [Run, Run];
    const directRun: Run = [direct, await mockToken(direct), direct.info.merchantAccountId as string];
    for (const pace of [0, PACE_MS]) {
      // Saturated: the mock alone on core 0 against each proxy there (the throughput ratio). Paced:
      // each proxy between two runs of the upstream direct, under the same load on the same cores
      // (the added p99: the issue's "direct to the same upstream").
      const runs = pace
        ? [directRun, upstreamRuns[0], first, upstreamRuns[1], second, upstreamRuns[2]]
        : [directRun, first, second];
      for (const label of ['GET /users', 'POST /payments/usd/direct'] as const) {
        const key = pace ? `${label} paced` : label;
        figures[key] = {};
        for (const [target, token, account] of runs) {
          const request = requests(token, account)[label];
          const result = await measure(target, request, connections, seconds, LOAD_CPU, 2, pace);
          (figures[key] as Record<string, LoadResult>)[target.name] = result;
          console.log(row(target.name, key, result));
        }
      }
    }
  } finally {
    const stopped = (await proxy.stop()) as Record<string, number>;
    await bare.stop();
    await direct.stop();
    await upstream.stop();
    // PACU_BENCH_NO_HAR=1 runs the proxy without recording (to see what the HAR costs).
    const entries = existsSync(har)
      ? (JSON.parse(readFileSync(har, 'utf8')) as { log: { entries: unknown[] } }).log.entries.length
      : 0;
    const loop = stopped.loopDelayMs as unknown as { p99: number; max: number } | undefined;
    console.log(
      `\n  proxy: ${stopped.exchanges} exchanges judged, ${stopped.recorded} recorded (${entries} entries in the HAR), ${stopped.findings} findings, peak RSS ${Math.round((stopped.maxRssBytes ?? 0) / 2 ** 20)} MiB, event-loop delay p99 ${loop?.p99.toFixed(1)} ms, max ${loop?.max.toFixed(1)} ms`,
    );
    rmSync(dir, { recursive: true, force: true });
  }
  console.log(
    `\nthrough the proxy vs direct (targets: saturated throughput >= ${RATIO_TARGET} of the mock on core ${SERVER_CPU}; paced, added p99 <= ${ADDED_P99_TARGET_MS} ms over the same upstream direct)`,
  );
  const summary: Record<string, unknown> = { connections, seconds, paceMs: PACE_MS, runs: figures };
  const out: RoundFigures = {};
  // CPU time per answer (the server's CPU share over its rate): steadier than rates on a busy host.
  const cpuUs = (result: LoadResult): number =>
    Math.round(((result.serverCpu ?? 0) * 1e6) / Math.max(1, result.requestsPerSecond));
  for (const label of ['GET /users', 'POST /payments/usd/direct']) {
    const saturated = figures[label] as Record<string, LoadResult>;
    const paced = figures[`${label} paced`] as Record<string, LoadResult>;
    const result = (runs: Record<string, LoadResult>, name: string): LoadResult => runs[name] as LoadResult;
    // Through `name`: the throughput ratio against the mock direct on the same core (saturated), and
    // the p99 added to the upstream direct, the mean of its runs just before and just after (paced).
    const against = (name: string): [number, number] => {
      const at = order.indexOf(name);
      const upstreamP99 =
        (result(paced, UPSTREAM_DIRECT[at] as string).p99Ms +
          result(paced, UPSTREAM_DIRECT[at + 1] as string).p99Ms) /
        2;
      return [
        hundredths(result(saturated, name).requestsPerSecond / result(saturated, DIRECT).requestsPerSecond),
        hundredths(result(paced, name).p99Ms - upstreamP99),
      ];
    };
    const [ratio, addedP99] = against(THROUGH);
    const [bareRatio, bareAddedP99] = against(BARE);
    const proxyCpu = (saturated[THROUGH] as LoadResult).serverCpu ?? 0;
    const [mockUs, bareUs, proxyUs] = [DIRECT, BARE, THROUGH].map((name) =>
      cpuUs(saturated[name] as LoadResult),
    );
    out[label] = {
      ratio,
      addedP99Ms: addedP99,
      bareRatio,
      bareAddedP99Ms: bareAddedP99,
      mockCpuUs: mockUs ?? 0,
      bareCpuUs: bareUs ?? 0,
      proxyCpuUs: proxyUs ?? 0,
    };
    summary[`proxy ${label}`] = out[label];
    console.log(
      `  ${label.padEnd(28)} throughput ratio ${ratio} ${ratio >= RATIO_TARGET ? 'met' : 'NOT met'} (bare proxy ${bareRatio})${proxyCpu < 0.9 ? ` (the proxy's core was ${Math.round(proxyCpu * 100)}% busy: something else was the limit)` : ''}\n  ${''.padEnd(28)} paced added p99 ${addedP99} ms ${addedP99 <= ADDED_P99_TARGET_MS ? 'met' : 'NOT met'} (bare proxy ${bareAddedP99} ms)\n  ${''.padEnd(28)} CPU per answer: mock ${mockUs} us, bare proxy ${bareUs} us, pacu proxy ${proxyUs} us`,
    );
  }
  console.log(JSON.stringify(summary));
  return out;
}
