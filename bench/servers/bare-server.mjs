// The ceiling: node:http answering a fixed envelope, nothing parsed, nothing stored.
import { createServer } from 'node:http';
import { announce } from './announce.mjs';

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
announce(server);
