// The proxy's floor: node:http in front of undici's dispatcher, as pacu proxy forwards (status,
// end-to-end headers and body piped as they come), nothing judged, kept or recorded. What pacu
// proxy costs beyond this is what judging and recording cost. argv[2]: the upstream base URL.
import { createServer } from 'node:http';
import { Pool } from 'undici';
import { endToEnd } from '../../dist/http/hop-by-hop.js';
import { announce } from './announce.mjs';

const upstream = new URL(process.argv[2] ?? '');
const root = upstream.pathname.replace(/\/v3\/?$/, '');
const pool = new Pool(upstream.origin);
const server = createServer((request, response) => {
  const chunks = [];
  request.on('data', (chunk) => chunks.push(chunk));
  request.on('end', () => {
    const body = Buffer.concat(chunks);
    pool.dispatch(
      {
        path: `${root}${request.url}`,
        method: request.method,
        headers: endToEnd(request.headers, ['host', 'content-length', 'expect']),
        body: body.length > 0 ? body : null,
      },
      {
        onRequestStart() {},
        onResponseStart(_controller, status, headers) {
          if (status >= 200) response.writeHead(status, endToEnd(headers));
        },
        onResponseData(_controller, chunk) {
          response.write(chunk);
        },
        onResponseEnd() {
          response.end();
        },
        onResponseError(_controller, error) {
          response.destroy(error);
        },
      },
    );
  });
});
announce(server);
