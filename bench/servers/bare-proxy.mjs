// The proxy's floor: node:http in front of undici's dispatcher, as pacu proxy forwards (status,
// end-to-end headers and body piped as they come), nothing judged, kept or recorded. What pacu
// proxy costs beyond this is what judging and recording cost. argv[2]: the upstream base URL.

// argv[3], a file: a plain recording proxy (decision 201). Each exchange is also written there as a
// HAR entry, straight from JSON.stringify to an append stream, its Authorization replaced; no body
// is parsed or judged, nothing is locked or synced.
import { createWriteStream } from 'node:fs';
import { createServer } from 'node:http';
import { Pool } from 'undici';
import { endToEnd } from '../../dist/http/hop-by-hop.js';
import { announce } from './announce.mjs';

const upstream = new URL(process.argv[2] ?? '');
const root = upstream.pathname.replace(/\/v3\/?$/, '');
const pool = new Pool(upstream.origin);
const har = process.argv[3] ? createWriteStream(process.argv[3]) : undefined;
har?.write('{"log":{"version":"1.2","creator":{"name":"plain recording proxy","version":"0"},"entries":[');
let first = true;

const pairs = (headers) => {
  const list = [];
  for (const [name, value] of Object.entries(headers))
    for (const one of Array.isArray(value) ? value : [value])
      list.push({ name, value: name.toLowerCase() === 'authorization' ? '[redacted]' : String(one) });
  return list;
};

function record(request, body, startedAt, status, headers, answer) {
  const text = Buffer.concat(answer).toString('utf8');
  const postData =
    body.length > 0
      ? { mimeType: request.headers['content-type'] ?? '', text: body.toString('utf8') }
      : undefined;
  const entry = {
    startedDateTime: new Date(startedAt).toISOString(),
    time: Date.now() - startedAt,
    request: {
      method: request.method,
      url: `${upstream.origin}${root}${request.url}`,
      httpVersion: 'HTTP/1.1',
      headers: pairs(request.headers),
      queryString: [],
      cookies: [],
      headersSize: -1,
      bodySize: body.length,
      ...(postData ? { postData } : {}),
    },
    response: {
      status,
      statusText: '',
      httpVersion: 'HTTP/1.1',
      headers: pairs(headers),
      cookies: [],
      content: { size: text.length, mimeType: String(headers['content-type'] ?? ''), text },
      redirectURL: '',
      headersSize: -1,
      bodySize: text.length,
    },
    cache: {},
    timings: { send: 0, wait: Date.now() - startedAt, receive: 0 },
  };
  har.write(`${first ? '' : ','}\n${JSON.stringify(entry)}`);
  first = false;
}

const server = createServer((request, response) => {
  const startedAt = Date.now();
  const chunks = [];
  request.on('data', (chunk) => chunks.push(chunk));
  request.on('end', () => {
    const body = Buffer.concat(chunks);
    const answer = [];
    let status = 0;
    let headers = {};
    pool.dispatch(
      {
        path: `${root}${request.url}`,
        method: request.method,
        headers: endToEnd(request.headers, ['host', 'content-length', 'expect']),
        body: body.length > 0 ? body : null,
      },
      {
        onRequestStart() {},
        onResponseStart(_controller, code, received) {
          if (code < 200) return;
          status = code;
          headers = endToEnd(received);
          response.writeHead(code, headers);
        },
        onResponseData(_controller, chunk) {
          if (har) answer.push(chunk);
          response.write(chunk);
        },
        onResponseEnd() {
          response.end();
          if (har) record(request, body, startedAt, status, headers, answer);
        },
        onResponseError(_controller, error) {
          response.destroy(error);
        },
      },
    );
  });
});
announce(server);
