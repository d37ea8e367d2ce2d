// `--only proxy`: wrk through pacu proxy (judging and recording to a HAR) against wrk straight to the
// same upstream, a pacu mock. wrk on core 1; the mock and the proxy on core 0, as every server of
// the bench: through the proxy they share that core, so the ratio is what the proxy costs there.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { mockToken, requests, row } from './load-requests.ts';
import { LOAD_CPU, startScript, type Target } from './targets.ts';
import { type LoadResult, measure, requireWrk } from './wrk.ts';

/** The targets at 32 connections, recording and judging on. */
const RATIO_TARGET = 0.5;
const ADDED_P99_TARGET_MS = 2;

export async function proxyRuns(connections: number, seconds: number): Promise<void> {
  requireWrk();
  const dir = mkdtempSync(path.join(tmpdir(), 'pacu-bench-proxy-'));
  const har = path.join(dir, 'bench.har');
  const mock = await startScript('pacu mock (direct)', 'bench/mock-server.ts');
  const proxy = await startScript('pacu proxy → mock', 'bench/proxy-server.ts', [
    mock.info.url as string,
    har,
  ]);
  console.log(
    `proxy: wrk -t1 -c${connections} -d${seconds}s on core ${LOAD_CPU}; the mock and the proxy on core 0; the proxy judges and records to a HAR\n`,
  );
  const token = await mockToken(mock);
  const figures: Record<string, Record<string, LoadResult>> = {};
  try {
    for (const [label, request] of Object.entries(requests(token, mock.info.merchantAccountId as string))) {
      figures[label] = {};
      for (const target of [mock, { ...proxy, info: mock.info } as Target]) {
        const result = await measure(target, request, connections, seconds, LOAD_CPU);
        (figures[label] as Record<string, LoadResult>)[target.name] = result;
        console.log(row(target.name, label, result));
      }
    }
  } finally {
    const stopped = (await proxy.stop()) as Record<string, number>;
    await mock.stop();
    const entries = (JSON.parse(readFileSync(har, 'utf8')) as { log: { entries: unknown[] } }).log.entries
      .length;
    console.log(
      `\n  proxy: ${stopped.exchanges} exchanges judged, ${stopped.recorded} recorded (${entries} entries in the HAR), ${stopped.findings} findings, peak RSS ${Math.round((stopped.maxRssBytes ?? 0) / 2 ** 20)} MiB`,
    );
    rmSync(dir, { recursive: true, force: true });
  }
  console.log(
    `\nthrough the proxy vs direct (targets: throughput >= ${RATIO_TARGET}, added p99 <= ${ADDED_P99_TARGET_MS} ms)`,
  );
  const summary: Record<string, unknown> = { connections, seconds, runs: figures };
  for (const [label, byTarget] of Object.entries(figures)) {
    const direct = byTarget['pacu mock (direct)'] as LoadResult;
    const through = byTarget['pacu proxy → mock'] as LoadResult;
    const ratio = Math.round((through.requestsPerSecond / direct.requestsPerSecond) * 100) / 100;
    const addedP99 = Math.round((through.p99Ms - direct.p99Ms) * 100) / 100;
    // CPU time per answer (the server's CPU share over its rate): steadier than rates on a busy host.
    const cpuUs = (result: LoadResult): number =>
      Math.round(((result.serverCpu ?? 0) * 1e6) / Math.max(1, result.requestsPerSecond));
    summary[`proxy ${label}`] = {
      ratio,
      addedP99Ms: addedP99,
      mockCpuUs: cpuUs(direct),
      proxyCpuUs: cpuUs(through),
    };
    console.log(
      `  ${label.padEnd(28)} throughput ratio ${ratio}  added p99 ${addedP99} ms  CPU per answer: mock ${cpuUs(direct)} us, proxy ${cpuUs(through)} us`,
    );
  }
  console.log(JSON.stringify(summary));
}
