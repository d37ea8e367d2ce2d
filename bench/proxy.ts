// `--only proxy`: pacu proxy, judging and recording, beside a bare Node proxy and (`--prism`) Prism's
// proxy in the same run; throughput saturated and p99 paced (docs/performance.md, decision 114).
import {
  closeSync,
  createReadStream,
  existsSync,
  fstatSync,
  mkdtempSync,
  openSync,
  readSync,
  rmSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { mockToken, requests, row } from './load-requests.ts';
import { median } from './startup.ts';
import { LOAD_CPU, SERVER_CPU, startPrismProxy, startScript, type Target } from './targets.ts';
import { type LoadResult, measure, requireWrk } from './wrk.ts';

/** The proxy's targets (decision 114), medians of rounds, judging and recording on. */
const TARGETS = {
  /** Saturated throughput of pacu proxy over the bare proxy's. */
  ofBare: 0.85,
  /** Paced p99 pacu proxy adds over the bare proxy's, ms. */
  addedP99Ms: 1,
  /** Saturated throughput of pacu proxy over Prism's validating proxy's (with --prism). */
  overPrism: 3,
} as const;
/** The paced load's wait before each request, per connection. */
const PACE_MS = 16;

const BARE = 'bare proxy';
const PACU = 'pacu proxy';
const BASELINE = 'pacu proxy (baseline)';
/** The bare proxy that also writes each exchange to a HAR, nothing judged (decision 201). */
const PLAIN = 'plain recording proxy';
const PRISM = 'prism proxy';
const LABELS = ['GET /users', 'POST /payments/usd/direct'] as const;

/** A figure to two decimals, as the bench prints them. */
const hundredths = (value: number): number => Math.round(value * 100) / 100;

/** How every HAR entry pacu writes starts, and how its recording ends when whole. */
const ENTRY_START = Buffer.from('\n{"startedDateTime":');
const HAR_END = '\n]}}\n';

/** The entries of a pacu recording, counted as it streams (a run's file outgrows one string); 0 unless whole. */
async function harEntries(file: string): Promise<number> {
  const fd = openSync(file, 'r');
  const end = Buffer.alloc(HAR_END.length);
  readSync(fd, end, 0, end.length, Math.max(0, fstatSync(fd).size - end.length));
  closeSync(fd);
  if (end.toString() !== HAR_END) return 0;
  let count = 0;
  let carry = Buffer.alloc(0);
  for await (const chunk of createReadStream(file)) {
    const data = Buffer.concat([carry, chunk as Buffer]);
    for (let at = data.indexOf(ENTRY_START); at >= 0; at = data.indexOf(ENTRY_START, at + 1)) count += 1;
    carry = data.subarray(data.length - ENTRY_START.length + 1);
  }
  return count;
}

/** One round's figures per request: the three the targets judge, and the CPU per answer beside them. */
const FIGURES = [
  'ofBare',
  'addedP99Ms',
  'overPrism',
  'bareCpuUs',
  'pacuCpuUs',
  'prismCpuUs',
  'baselineOfBare',
  'baselineCpuUs',
  'plainOfBare',
  'ofPlain',
] as const;
type Figures = Record<(typeof FIGURES)[number], number>;
type RoundFigures = Record<string, Figures>;

/** CPU time per answer (the server's CPU share over its rate): steadier than rates on a busy host. */
const cpuUs = (result: LoadResult | undefined): number =>
  result ? Math.round(((result.serverCpu ?? 0) * 1e6) / Math.max(1, result.requestsPerSecond)) : 0;

const verdict = (met: boolean): string => (met ? 'met' : 'NOT met');

/**
 * `rounds` rounds, each on fresh servers, then the median of each figure: on a noisy host one
 * round's p99 moves by several ms; a median over rounds less.
 */
export async function proxyRuns(
  connections: number,
  seconds: number,
  rounds = 1,
  prism = false,
  /** A checkout of an earlier pacu, built: its proxy measured in the same rounds, as pacu's is. */
  baseline?: string,
): Promise<void> {
  const all: RoundFigures[] = [];
  for (let round = 1; round <= rounds; round++) {
    if (rounds > 1) console.log(`\nround ${round} of ${rounds}`);
    all.push(await proxyRound(connections, seconds, round, prism, baseline));
  }
  const medians: RoundFigures = {};
  for (const label of LABELS)
    medians[label] = Object.fromEntries(
      FIGURES.map((key) => [key, hundredths(median(all.map((round) => round[label]?.[key] ?? 0)))]),
    ) as Figures;
  console.log(
    `\n${rounds === 1 ? 'one round' : `medians of ${rounds} rounds`}, judging and recording on (targets: throughput >= ${TARGETS.ofBare} of the bare proxy; paced, added p99 <= ${TARGETS.addedP99Ms} ms over it${prism ? `; throughput >= ${TARGETS.overPrism}x Prism's proxy` : ''})`,
  );
  for (const label of LABELS) {
    const figures = medians[label] as Figures;
    console.log(
      `  ${label.padEnd(28)} throughput ${figures.ofBare} of the bare proxy ${verdict(figures.ofBare >= TARGETS.ofBare)}\n` +
        `  ${''.padEnd(28)} paced p99 +${figures.addedP99Ms} ms over the bare proxy ${verdict(figures.addedP99Ms <= TARGETS.addedP99Ms)}\n` +
        (prism
          ? `  ${''.padEnd(28)} throughput ${figures.overPrism}x Prism's proxy ${verdict(figures.overPrism >= TARGETS.overPrism)}\n`
          : '') +
        `  ${''.padEnd(28)} the plain recording proxy (nothing judged) ${figures.plainOfBare} of the bare proxy; pacu ${figures.ofPlain} of it\n` +
        `  ${''.padEnd(28)} CPU per answer: bare ${figures.bareCpuUs} us, pacu ${figures.pacuCpuUs} us${prism ? `, prism ${figures.prismCpuUs} us` : ''}` +
        (baseline
          ? `\n  ${''.padEnd(28)} the baseline build: throughput ${figures.baselineOfBare} of the bare proxy, CPU per answer ${figures.baselineCpuUs} us`
          : ''),
    );
  }
  console.log(
    JSON.stringify({ proxy: { rounds, connections, seconds, paceMs: PACE_MS, targets: TARGETS, medians } }),
  );
}

/**
 * The proxies' upstream: a mock, and its answers replayed by a bare server, both on the load core.
 * The load core's work per request stays far below either proxy's, so the proxies set the rates.
 */
export async function startCannedUpstream(): Promise<{ mock: Target; upstream: Target }> {
  const mock = await startScript('upstream mock', 'bench/servers/mock-server.mjs', [], LOAD_CPU);
  const upstream = await startScript(
    'canned upstream',
    'bench/servers/canned-upstream.mjs',
    [mock.info.url as string],
    LOAD_CPU,
  );
  return { mock, upstream };
}

async function proxyRound(
  connections: number,
  seconds: number,
  round: number,
  prism: boolean,
  baseline: string | undefined,
): Promise<RoundFigures> {
  requireWrk();
  const dir = mkdtempSync(path.join(tmpdir(), 'pacu-bench-proxy-'));
  const har = path.join(dir, 'bench.har');
  const { mock, upstream } = await startCannedUpstream();
  const upstreamUrl = upstream.info.url as string;
  const bare = await startScript(BARE, 'bench/servers/bare-proxy.mjs', [upstreamUrl], SERVER_CPU);
  const pacu = await startScript(PACU, 'bench/servers/proxy-server.mjs', [upstreamUrl, har], SERVER_CPU);
  const plain = await startScript(
    PLAIN,
    'bench/servers/bare-proxy.mjs',
    [upstreamUrl, path.join(dir, 'plain.har')],
    SERVER_CPU,
  );
  const earlier = baseline
    ? await startScript(
        BASELINE,
        'bench/servers/proxy-server.mjs',
        [upstreamUrl, path.join(dir, 'baseline.har')],
        SERVER_CPU,
        baseline,
      )
    : undefined;
  const prismProxy = prism ? await startPrismProxy(upstreamUrl) : undefined;
  console.log(
    `proxy: wrk -t1 -c${connections} -d${seconds}s on core ${LOAD_CPU} beside the upstream (the mock's answers, replayed); each proxy on core ${SERVER_CPU}; pacu judges and records to a HAR\n`,
  );
  const figures: Record<string, Record<string, LoadResult>> = {};
  // The Node proxies run in turn, in the opposite order every other round; Prism's runs last.
  const nodeProxies = earlier ? [bare, pacu, earlier] : [bare, pacu];
  const order = round % 2 === 0 ? [...nodeProxies].reverse() : nodeProxies;
  // The plain recording proxy runs saturated only: its rate is what a plain recording allows.
  const saturatedOrder = round % 2 === 0 ? [plain, ...order] : [...order, plain];
  try {
    // Every proxy forwards to the one upstream: its token and its merchant account for all.
    const token = await mockToken(mock);
    const account = mock.info.merchantAccountId as string;
    const load = requests(token, account);
    for (const pace of [0, PACE_MS]) {
      const targets: Target[] = pace ? order : [...saturatedOrder, ...(prismProxy ? [prismProxy] : [])];
      for (const label of LABELS) {
        const key = pace ? `${label} paced` : label;
        figures[key] = {};
        for (const target of targets) {
          const result = await measure(target, load[label], connections, seconds, LOAD_CPU, 2, pace);
          (figures[key] as Record<string, LoadResult>)[target.name] = result;
          console.log(row(target.name, key, result));
        }
      }
    }
  } finally {
    const stopped = (await pacu.stop()) as Record<string, number>;
    await bare.stop();
    await plain.stop();
    await earlier?.stop();
    await prismProxy?.stop();
    await upstream.stop();
    await mock.stop();
    // PACU_BENCH_NO_HAR=1 runs the proxy without recording (to see what the HAR costs).
    const entries = existsSync(har) ? await harEntries(har) : 0;
    const loop = stopped.loopDelayMs as unknown as { p99: number; max: number } | undefined;
    console.log(
      `\n  pacu proxy: ${stopped.exchanges} exchanges judged, ${stopped.recorded} recorded (${entries} entries in the HAR), ${stopped.findings} findings, peak RSS ${Math.round((stopped.maxRssBytes ?? 0) / 2 ** 20)} MiB, event-loop delay p99 ${loop?.p99.toFixed(1)} ms, max ${loop?.max.toFixed(1)} ms`,
    );
    rmSync(dir, { recursive: true, force: true });
  }
  const out: RoundFigures = {};
  for (const label of LABELS) {
    const saturated = figures[label] as Record<string, LoadResult>;
    const paced = figures[`${label} paced`] as Record<string, LoadResult>;
    const rate = (name: string): number => saturated[name]?.requestsPerSecond ?? 0;
    out[label] = {
      ofBare: hundredths(rate(PACU) / Math.max(1, rate(BARE))),
      addedP99Ms: hundredths((paced[PACU]?.p99Ms ?? 0) - (paced[BARE]?.p99Ms ?? 0)),
      overPrism: prism ? hundredths(rate(PACU) / Math.max(1, rate(PRISM))) : 0,
      bareCpuUs: cpuUs(saturated[BARE]),
      pacuCpuUs: cpuUs(saturated[PACU]),
      prismCpuUs: cpuUs(saturated[PRISM]),
      baselineOfBare: earlier ? hundredths(rate(BASELINE) / Math.max(1, rate(BARE))) : 0,
      baselineCpuUs: cpuUs(saturated[BASELINE]),
      plainOfBare: hundredths(rate(PLAIN) / Math.max(1, rate(BARE))),
      ofPlain: hundredths(rate(PACU) / Math.max(1, rate(PLAIN))),
    };
    const busy = saturated[PACU]?.serverCpu ?? 0;
    if (busy < 0.9)
      console.log(
        `  warning: on ${label} pacu proxy's core was ${Math.round(busy * 100)}% busy: something else (wrk, the upstream) was the limit`,
      );
  }
  console.log(JSON.stringify({ proxyRound: { round, runs: figures, figures: out } }));
  return out;
}
