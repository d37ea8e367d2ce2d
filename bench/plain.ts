// `npm run bench -- --only plain`: the mock's transfer beside a plain and a tuned server doing the
// same work straight on node:http (bench/servers/essential-server.mjs, tuned-server.mjs) and beside
// bare node:http, in alternating rounds on one core, so the host's drift falls on all alike (decision 201).
import { mockToken, requests } from './load-requests.ts';
import { median, ratio } from './startup.ts';
import { LOAD_CPU, SERVER_CPU, startScript, type Target } from './targets.ts';
import { measure, requireWrk } from './wrk.ts';

const POST = 'POST /payments/usd/direct';
const PLAIN_TOKEN = 'essential-token';

interface Figure {
  requestsPerSecond: number;
  /** The server's CPU for one answer, in microseconds. */
  cpuMicros: number;
  p99Ms: number;
}

export async function plainRuns(
  connections: number,
  seconds: number,
  rounds: number,
  baseline?: string,
): Promise<void> {
  requireWrk();
  const bare = await startScript('bare node:http', 'bench/servers/bare-server.mjs');
  const plain = await startScript('plain server', 'bench/servers/essential-server.mjs');
  const tuned = await startScript('tuned server', 'bench/servers/tuned-server.mjs');
  const mock = await startScript('pacu mock', 'bench/servers/mock-server.mjs');
  const targets: Target[] = [bare, plain, tuned, mock];
  if (baseline)
    targets.push(
      await startScript('pacu mock (baseline)', 'bench/servers/mock-server.mjs', [], undefined, baseline),
    );
  const loads = new Map<string, ReturnType<typeof requests>[typeof POST]>();
  for (const target of targets) {
    const isMock = target.name.startsWith('pacu mock');
    const token = isMock ? await mockToken(target) : PLAIN_TOKEN;
    loads.set(target.name, requests(token, (target.info.merchantAccountId as string) ?? 'acc_plain')[POST]);
  }
  console.log(
    `plain: wrk -t1 -c${connections} on core ${LOAD_CPU}, each server on core ${SERVER_CPU}; ${rounds} rounds of ${seconds} s (1 s warm-up each), the order reversed every other round\n`,
  );
  const load = (target: Target) => loads.get(target.name) as ReturnType<typeof requests>[typeof POST];
  // A first warm-up each: the JIT and the stores' first growth are not a round's.
  for (const target of targets)
    await measure(target, load(target), connections, 3, LOAD_CPU, 0, 0, `warm${targets.indexOf(target)}`);
  const figures = new Map<string, Figure[]>(targets.map((target) => [target.name, []]));
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? targets : [...targets].reverse();
    const line: string[] = [];
    for (const target of order) {
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
      };
      figures.get(target.name)?.push(figure);
      line.push(
        `${target.name} ${figure.requestsPerSecond}/s ${Math.round(cpu * 100)}% ${figure.cpuMicros} us p99 ${figure.p99Ms} ms`,
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
  const summary: Record<string, unknown> = { connections, seconds, rounds };
  console.log("\nmedians over the rounds (each round divided by the same round's figure):");
  for (const target of targets.slice(1)) {
    const shares = {
      ofBare: ratio(of(target.name, bare.name), 1),
      ...(target === plain || target === tuned ? {} : { ofPlain: ratio(of(target.name, plain.name), 1) }),
      ...(target === plain || target === tuned ? {} : { ofTuned: ratio(of(target.name, tuned.name), 1) }),
      cpuMicros: median((figures.get(target.name) ?? []).map((figure) => figure.cpuMicros)),
      p99Ms: median((figures.get(target.name) ?? []).map((figure) => figure.p99Ms)),
    };
    summary[target.name] = shares;
    console.log(
      `  ${target.name.padEnd(22)} ${shares.ofBare} of bare${'ofPlain' in shares ? `, ${shares.ofPlain} of the plain server, ${shares.ofTuned} of the tuned one` : ''}; ${shares.cpuMicros} us of CPU an answer; p99 ${shares.p99Ms} ms`,
    );
  }
  const bareCpu = median((figures.get(bare.name) ?? []).map((figure) => figure.cpuMicros));
  const bareP99 = median((figures.get(bare.name) ?? []).map((figure) => figure.p99Ms));
  summary[bare.name] = { cpuMicros: bareCpu, p99Ms: bareP99 };
  console.log(`  ${bare.name.padEnd(22)} ${bareCpu} us of CPU an answer; p99 ${bareP99} ms`);
  for (const target of targets) await target.stop();
  console.log(JSON.stringify(summary));
}
