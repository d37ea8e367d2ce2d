// The pacu mock in its own process, so its RSS is its own. argv[2]: a state file (snapshot and
// journal) to start from and write to. `startMs`: spec, Prism, state load and listen, in process.
import { startMock } from '../../dist/mock/index.js';

const where = process.argv[2];
// A postgres:// URL is the shared store (a control token is then required: the bench's own).
const store = where?.startsWith('postgres') ? where : undefined;
const stateFile = store ? undefined : where;
const started = performance.now();
const mock = await startMock({
  ...(stateFile ? { stateFile } : {}),
  ...(store ? { store, resetStore: true, controlToken: 'bench' } : {}),
  // The instructions bench counts a transfer's own work: on a manual clock none settles meanwhile.
  ...(process.env.PACU_BENCH_CLOCK === 'manual' ? { clock: 'manual' } : {}),
  // argv[3] 'keep-all': the million stays a million (retention would forget what is past 15 minutes).
  ...(process.argv[3] === 'keep-all' ? { retain: Number.POSITIVE_INFINITY } : {}),
  // argv[3] 'retain=MS': a short retention, so a short soak shows where memory levels off.
  ...(process.argv[3]?.startsWith('retain=') ? { retain: Number(process.argv[3].slice(7)) } : {}),
  log: (line) => process.stderr.write(`${line}\n`),
});
// Memory right after start (state loaded, nothing created yet). No gc() here: startMock collects
// before it listens, as it does for every user; one more here would be the bench's alone.
const loaded = {
  startMs: Math.round(performance.now() - started),
  loadedRssBytes: process.memoryUsage().rss,
  loadedHeapBytes: process.memoryUsage().heapUsed,
};
process.stdout.write(
  `${JSON.stringify({ ...loaded, origin: mock.origin, url: mock.url, ...mock.seeded, clientId: mock.demoClient.clientId, clientSecret: mock.demoClient.clientSecret })}\n`,
);
// Exit without close(): the bench wants the peak RSS, not a rewrite of a million-transfer state file.
process.on('SIGTERM', () => {
  const maxRssBytes = process.resourceUsage().maxRSS * 1024;
  // Run with --expose-gc: the RSS after a full collection is what the state really holds.
  globalThis.gc?.();
  const settledRssBytes = process.memoryUsage().rss;
  process.stdout.write(`${JSON.stringify({ maxRssBytes, settledRssBytes })}\n`);
  process.exit(0);
});
