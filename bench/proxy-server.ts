// pacu proxy in its own process, judging and recording (argv[2]: the upstream base URL, argv[3]: the HAR file).
import { startProxy } from '../proxy/index.ts';

const [upstream = '', record] = process.argv.slice(2);
const proxy = await startProxy({ upstream, ...(record ? { record } : {}), onFinding: () => {} });
process.stdout.write(`${JSON.stringify({ origin: proxy.origin, url: proxy.url })}\n`);
process.on('SIGTERM', async () => {
  const maxRssBytes = process.resourceUsage().maxRSS * 1024;
  // As pacu proxy stops: the recording's last writes land before the process ends.
  await proxy.close();
  const { exchanges, recorded } = proxy.counts();
  const findings = proxy.findings().length;
  process.stdout.write(`${JSON.stringify({ maxRssBytes, exchanges, recorded, findings })}\n`);
  process.exit(0);
});
