// The proxy bench's upstream: the mock's answers (argv[2], its base URL) replayed by a bare server,
// so the load core is not what limits the proxies. The first success of each method and path is
// kept; a GET gets its bytes again, a POST its record with the request's reference and that
// reference's own transaction_id (a repeat gets its first id again, as from the mock).
import { createServer } from 'node:http';
import { announce } from './announce.mjs';

const mock = new URL(process.argv[2] ?? '');
/** `${method} ${path}` → the mock's first answer. */
const kept = new Map();
/** reference → its transaction_id. */
const ids = new Map();

async function fromMock(request, body) {
  const answer = await fetch(`${mock.origin}${mock.pathname.replace(/\/$/, '')}${request.url.slice(3)}`, {
    method: request.method,
    headers: {
      authorization: request.headers.authorization ?? '',
      'content-type': request.headers['content-type'] ?? '',
    },
    ...(body.length > 0 ? { body } : {}),
  });
  const text = await answer.text();
  return {
    status: answer.status,
    type: answer.headers.get('content-type') ?? 'application/json',
    text,
    json: answer.status < 300 && request.method === 'POST' ? JSON.parse(text) : undefined,
  };
}

const server = createServer((request, response) => {
  const chunks = [];
  request.on('data', (chunk) => chunks.push(chunk));
  request.on('end', async () => {
    const body = Buffer.concat(chunks);
    const key = `${request.method} ${request.url.split('?')[0]}`;
    let answer = kept.get(key);
    if (!answer) {
      answer = await fromMock(request, body);
      // Only a success is kept: a readiness probe without a token (Prism's) is answered, not replayed.
      if (answer.status < 300) kept.set(key, answer);
    }
    let text = answer.text;
    if (answer.json) {
      const { reference } = JSON.parse(body.toString('utf8'));
      let id = ids.get(reference);
      if (id === undefined) {
        id = `txn_${(ids.size + 1).toString(16).padStart(16, '0')}`;
        ids.set(reference, id);
      }
      text = JSON.stringify({
        ...answer.json,
        data: {
          ...answer.json.data,
          ...('reference' in answer.json.data ? { reference } : {}),
          transaction_id: id,
        },
      });
    }
    response.writeHead(answer.status, {
      'content-type': answer.type,
      'content-length': Buffer.byteLength(text),
    });
    response.end(text);
  });
});
announce(server);
