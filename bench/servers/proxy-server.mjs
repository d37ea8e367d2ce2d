// pacu proxy in its own process, judging and recording (argv[2]: the upstream base URL, argv[3]: the HAR file).
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { startProxy } from '../../dist/proxy/index.js';

const [upstream = '', record] = process.argv.slice(2);
const proxy = await startProxy({
  upstream,
  ...(record && !process.env.PACU_BENCH_NO_HAR ? { record } : {}),
  onFinding: () => {},
});
// How long the event loop was held, so a latency tail can be told from a queue.
const loopDelay = monitorEventLoopDelay({ resolution: 1 });
loopDelay.enable();
process.stdout.write(`${JSON.stringify({ origin: proxy.origin, url: proxy.url })}\n`);
process.on('SIGTERM', async () => {
  const maxRssBytes = process.resourceUsage().maxRSS * 1024;
  // As pacu proxy stops: the recording's last writes land before the process ends.
  await proxy.close();
  const { exchanges, recorded } = proxy.counts();
  const findings = proxy.findings().length;
  const loopDelayMs = { p99: loopDelay.percentile(99) / 1e6, max: loopDelay.max / 1e6 };
  process.stdout.write(`${JSON.stringify({ maxRssBytes, exchanges, recorded, findings, loopDelayMs })}\n`);
  process.exit(0);
});
