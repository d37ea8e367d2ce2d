// `npm run bench -- --only plain`: the mock's transfer beside a plain and a tuned server doing the
// same work straight on node:http (bench/servers/essential-server.mjs, tuned-server.mjs) and beside
// bare node:http, in alternating rounds on one core, so the host's drift falls on all alike (decision 201).
import { mockToken, requests } from './load-requests.ts';
import { median, ratio } from './startup.ts';
import { LOAD_CPU, SERVER_CPU, startScript, type Target } from './targets.ts';
import { measure, requireWrk } from './wrk.ts';

const POST = 'POST /payments/usd/direct';
/** The token the plain and tuned servers know, and an account for them (they take any). */
export const PLAIN_TOKEN = 'essential-token';
export const PLAIN_ACCOUNT = 'acc_plain';

interface Figure {
  requestsPerSecond: number;
  /** The server's CPU for one answer, in microseconds. */
  cpuMicros: number;
  p99Ms: number;
  /** The p99 under the paced load (`PACE_MS`), which every server carries. */
  pacedP99Ms: number;
}

/** The paced load's wait before each request, per connection: some 7,000 requests a second from 32. */
const PACE_MS = 4;

export async function plainRuns(
  connections: number,
  seconds: number,
  rounds: number,
  baseline?: string,
  fresh = false,
): Promise<void> {
  requireWrk();
  const starts: Array<() => Promise<Target>> = [
    () => startScript('bare node:http', 'bench/servers/bare-server.mjs'),
    () => startScript('plain server', 'bench/servers/essential-server.mjs'),
    () => startScript('tuned server', 'bench/servers/tuned-server.mjs'),
    () => startScript('pacu mock', 'bench/servers/mock-server.mjs'),
  ];
  if (baseline)
    starts.push(() =>
      startScript('pacu mock (baseline)', 'bench/servers/mock-server.mjs', [], undefined, baseline),
    );
  const loads = new Map<string, ReturnType<typeof requests>[typeof POST]>();
  const load = (target: Target) => loads.get(target.name) as ReturnType<typeof requests>[typeof POST];
  /** Every server started, its load made, and a first warm-up: the JIT's first work is not a round's. */
  const startAll = async (): Promise<Target[]> => {
    const started: Target[] = [];
    for (const start of starts) started.push(await start());
    for (const target of started) {
      const isMock = target.name.startsWith('pacu mock');
      const token = isMock ? await mockToken(target) : PLAIN_TOKEN;
      loads.set(
        target.name,
        requests(token, (target.info.merchantAccountId as string) ?? PLAIN_ACCOUNT)[POST],
      );
    }
    for (const [index, target] of started.entries())
      await measure(target, load(target), connections, 3, LOAD_CPU, 0, 0, `warm${index}`);
    return started;
  };
  console.log(
    `plain: wrk -t1 -c${connections} on core ${LOAD_CPU}, each server on core ${SERVER_CPU}; ${rounds} rounds of ${seconds} s (1 s warm-up each), the order reversed every other round${fresh ? ', every server started afresh for each round' : ''}\n`,
  );
  let targets = await startAll();
  const [bare, plain, tuned] = targets as [Target, Target, Target];
  const figures = new Map<string, Figure[]>(targets.map((target) => [target.name, []]));
  for (let round = 0; round < rounds; round++) {
    // --fresh: each round meets servers that hold only their warm-up's transfers.
    if (fresh && round > 0) {
      for (const target of targets) await target.stop();
      targets = await startAll();
    }
    const order = round % 2 === 0 ? targets : [...targets].reverse();
    const line: string[] = [];
    for (const target of order) {
      // The paced load first: after the saturating one, it met the settlement of the transfers made
      // ten seconds before at the saturated rate, work a server paced so does not have.
      const paced = await measure(
        target,
        load(target),
        connections,
        seconds / 2,
        LOAD_CPU,
        1,
        PACE_MS,
        `p${round}t${targets.indexOf(target)}`,
      );
      const result = await measure(
        target,
        load(target),
        connections,
        seconds,
        LOAD_CPU,
        1,
        0,
        `r${round}t${targets.indexOf(target)}`,
      );
      const cpu = result.serverCpu ?? 0;
      const figure = {
        requestsPerSecond: result.requestsPerSecond,
        cpuMicros: Math.round((cpu * 1e6) / Math.max(1, result.requestsPerSecond)),
        p99Ms: result.p99Ms,
        pacedP99Ms: paced.p99Ms,
      };
      figures.get(target.name)?.push(figure);
      line.push(
        `${target.name} ${figure.requestsPerSecond}/s ${Math.round(cpu * 100)}% ${figure.cpuMicros} us p99 ${figure.p99Ms} ms, paced ${paced.requestsPerSecond}/s p99 ${figure.pacedP99Ms} ms`,
      );
    }
    console.log(`round ${round + 1}: ${line.join(' | ')}`);
  }
  const of = (name: string, over: string) =>
    median(
      (figures.get(name) ?? []).map(
        (figure, index) =>
          figure.requestsPerSecond / ((figures.get(over) ?? [])[index]?.requestsPerSecond ?? 1),
      ),
    );
  const summary: Record<string, unknown> = { connections, seconds, rounds, fresh };
  console.log("\nmedians over the rounds (each round divided by the same round's figure):");
  for (const target of targets.slice(1)) {
    const shares = {
      ofBare: ratio(of(target.name, bare.name), 1),
      ...(target.name === plain.name || target.name === tuned.name
        ? {}
        : {
            ofPlain: ratio(of(target.name, plain.name), 1),
            ofTuned: ratio(of(target.name, tuned.name), 1),
          }),
      cpuMicros: median((figures.get(target.name) ?? []).map((figure) => figure.cpuMicros)),
      p99Ms: median((figures.get(target.name) ?? []).map((figure) => figure.p99Ms)),
      pacedP99Ms: median((figures.get(target.name) ?? []).map((figure) => figure.pacedP99Ms)),
    };
    summary[target.name] = shares;
    console.log(
      `  ${target.name.padEnd(22)} ${shares.ofBare} of bare${'ofPlain' in shares ? `, ${shares.ofPlain} of the plain server, ${shares.ofTuned} of the tuned one` : ''}; ${shares.cpuMicros} us of CPU an answer; p99 ${shares.p99Ms} ms, paced ${shares.pacedP99Ms} ms`,
    );
  }
  const bareCpu = median((figures.get(bare.name) ?? []).map((figure) => figure.cpuMicros));
  const bareP99 = median((figures.get(bare.name) ?? []).map((figure) => figure.p99Ms));
  const barePaced = median((figures.get(bare.name) ?? []).map((figure) => figure.pacedP99Ms));
  summary[bare.name] = { cpuMicros: bareCpu, p99Ms: bareP99, pacedP99Ms: barePaced };
  console.log(
    `  ${bare.name.padEnd(22)} ${bareCpu} us of CPU an answer; p99 ${bareP99} ms, paced ${barePaced} ms`,
  );
  for (const target of targets) await target.stop();
  console.log(JSON.stringify(summary));
}
