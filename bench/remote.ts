// `--only remote`: the wall time of a default `pacu check` against the space's base provider behind
// a front that adds a round trip, over the run's critical-path floor (docs/performance.md).

import { type Report, runChecks } from '../suites/index.ts';
import { startNetworkFront } from '../test/providers/network/network-front.ts';
import { spaceTarget } from '../test/providers/space/check-space.ts';
import { startSpaceProvider } from '../test/providers/space/space-provider.ts';

/** Round trips on the longest ordered chain of a default run (see above), and its one pause. */
const CHAIN_ROUND_TRIPS = 7;
const CHAIN_PAUSE_MS = 60;
const RATIO_GOAL_AT_100_MS = 3;
const SEED = 27;

/** The verdict, as rule × operation → status: what must not change with the network. */
const verdictOf = (report: Report): string =>
  report.rules.map((rule) => `${rule.id} ${rule.operation} ${rule.status}`).join('\n');

async function timedCheck(latencyMs: number): Promise<{ report: Report; wallMs: number }> {
  const provider = await startSpaceProvider();
  const front = await startNetworkFront(provider.url, { latencyMs, jitterMs: latencyMs / 10 });
  try {
    const started = performance.now();
    const report = await runChecks({ target: { ...spaceTarget(provider), baseUrl: front.url }, seed: SEED });
    return { report, wallMs: performance.now() - started };
  } finally {
    await front.close();
    await provider.close();
  }
}

export async function remoteRuns(latencies: readonly number[] = [50, 100, 200]): Promise<void> {
  const near = await timedCheck(0);
  console.log(
    `remote: pacu check (defaults, seed ${SEED}) against the space's base provider behind a latency front\n`,
  );
  console.log(
    `  0 ms: ${(near.wallMs / 1000).toFixed(1)} s, ${near.report.traffic?.sent} requests, ${near.report.summary.passed} passed, ${near.report.summary.failed} failed`,
  );
  const rows: Record<string, unknown>[] = [];
  for (const latencyMs of latencies) {
    const { report, wallMs } = await timedCheck(latencyMs);
    const floorMs = CHAIN_ROUND_TRIPS * latencyMs + CHAIN_PAUSE_MS;
    const ratio = Math.round((wallMs / floorMs) * 100) / 100;
    const same = verdictOf(report) === verdictOf(near.report);
    rows.push({
      latencyMs,
      wallMs: Math.round(wallMs),
      floorMs,
      ratio,
      requests: report.traffic?.sent,
      same,
    });
    const goal = latencyMs === 100 ? ` (goal <= ${RATIO_GOAL_AT_100_MS})` : '';
    console.log(
      `  ${latencyMs} ms: ${(wallMs / 1000).toFixed(1)} s, floor ${(floorMs / 1000).toFixed(2)} s, ${ratio}x the floor${goal}, ${report.traffic?.sent} requests, verdict ${same ? 'same as at 0 ms' : 'DIFFERENT from 0 ms'}`,
    );
  }
  console.log(JSON.stringify({ remote: rows }));
}
