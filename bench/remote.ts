// `--only remote`: the wall time of a default `pacu check` against the space's base provider behind
// a front that adds a round trip, over the run's critical-path floor; then behind the realistic
// network a sandbox showed (a rate limit, Retry-After in both forms, maintenance, resets), how polite the
// run was and its wall time over the floor the rate sets (docs/performance.md).

import { type Report, runChecks } from '../suites/index.ts';
import { type NetworkOptions, startNetworkFront } from '../test/providers/network/network-front.ts';
import { spaceTarget } from '../test/providers/space/check-space.ts';
import { startSpaceProvider } from '../test/providers/space/space-provider.ts';

/**
 * Round trips on the longest ordered chain of a default run (docs/performance.md), and its one pause:
 * the probe, a token, the user list, the funding account, an idempotency case of three, then the
 * run's oldest token used once more after the other rules (auth.token-refused-early, decision 172).
 */
const CHAIN_ROUND_TRIPS = 8;
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
  await politeRuns();
}

/** The realistic network a sandbox showed: latency with jitter, a rate limit with bursts, 503 windows, GET resets. */
const BURST = 40;
const PER_SECOND = 20;
const realistic = (retryAfter: 'seconds' | 'date'): NetworkOptions => ({
  latencyMs: 40,
  jitterMs: 80,
  rateLimit: { burst: BURST, perSecond: PER_SECOND, retryAfter },
  maintenance: { everyMs: 20_000, forMs: 2_000, firstAtMs: 3_000, retryAfter },
  resetShare: 1 / 200,
  resetMethods: ['GET'],
});

/**
 * Polite, not only patient: the share of requests refused with 429 after the first one, and the wall
 * time over the floor the rate sets (the burst at once, the rest at the refill rate, plus the
 * maintenance windows met); also without the windows, as the limit refills during them.
 */
async function politeRuns(seeds: readonly number[] = [SEED, SEED + 1]): Promise<void> {
  console.log(
    '\npolite: pacu check (defaults) against the base provider behind 40-120 ms, 20/s bursts of 40,',
  );
  console.log(
    '  503 for 2 s every 20 s, a reset on 1 GET in 200 (goals: <= 5 % refused after the first 429, <= 1.3x)\n',
  );
  const rows: Record<string, unknown>[] = [];
  for (const retryAfter of ['seconds', 'date'] as const)
    for (const seed of seeds) {
      const provider = await startSpaceProvider();
      const front = await startNetworkFront(provider.url, realistic(retryAfter));
      try {
        const started = performance.now();
        const report = await runChecks({ target: { ...spaceTarget(provider), baseUrl: front.url }, seed });
        const wallMs = performance.now() - started;
        const stats = front.stats;
        const rateFloorMs = (Math.max(0, stats.passed - BURST) / PER_SECOND) * 1000;
        const floorMs = rateFloorMs + stats.maintenanceMs;
        const row = {
          retryAfter,
          seed,
          requests: stats.requests,
          refused: stats.limited,
          refusedAfterFirst: stats.limitedAfterFirst,
          refusedAfterFirstPct: Math.round((1000 * stats.limitedAfterFirst) / stats.requests) / 10,
          refusedAfterTold: stats.limitedAfterTold,
          unavailable: stats.unavailable,
          resets: stats.resets,
          wallMs: Math.round(wallMs),
          floorMs: Math.round(floorMs),
          ratio: Math.round((wallMs / floorMs) * 100) / 100,
          ratioWithoutWindows: Math.round((wallMs / rateFloorMs) * 100) / 100,
          learnedPerSecond: report.learned?.rate?.perSecond,
          failed: report.summary.failed,
        };
        rows.push(row);
        console.log(
          `  Retry-After as ${retryAfter}, seed ${seed}: ${row.requests} requests, ${row.refusedAfterFirst} refused after the first 429 (${row.refusedAfterFirstPct} %; ${row.refusedAfterTold} of them sent after it was answered), ${(wallMs / 1000).toFixed(1)} s over a floor of ${(floorMs / 1000).toFixed(1)} s: ${row.ratio}x (${row.ratioWithoutWindows}x without the 503 windows), ${row.learnedPerSecond} a second kept, ${row.failed} failed`,
        );
      } finally {
        await front.close();
        await provider.close();
      }
    }
  console.log(JSON.stringify({ polite: rows }));
}
