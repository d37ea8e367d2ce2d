// How a bench server tells bench/targets.ts it listens (one JSON line: its origin and base URL) and
// what it used (its peak RSS, at SIGTERM).
export function announce(server) {
  server.listen(0, '127.0.0.1', () => {
    const origin = `http://127.0.0.1:${server.address().port}`;
    process.stdout.write(`${JSON.stringify({ origin, url: `${origin}/v3` })}\n`);
  });
  process.on('SIGTERM', () => {
    process.stdout.write(`${JSON.stringify({ maxRssBytes: process.resourceUsage().maxRSS * 1024 })}\n`);
    process.exit(0);
  });
}
