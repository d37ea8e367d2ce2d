// The ceiling: node:http answering a fixed envelope, nothing parsed, nothing stored.
import { createServer } from 'node:http';

const body = JSON.stringify({
  success: true,
  message: 'ok',
  data: { items: [], page: 1, total_count: 0, total_pages: 0 },
});
const server = createServer((request, response) => {
  request.resume();
  request.on('end', () => {
    response.writeHead(200, {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(body),
    });
    response.end(body);
  });
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ origin: `http://127.0.0.1:${server.address().port}` })}\n`);
});
process.on('SIGTERM', () => {
  process.stdout.write(`${JSON.stringify({ maxRssBytes: process.resourceUsage().maxRSS * 1024 })}\n`);
  process.exit(0);
});
