import { type IncomingMessage, type ServerResponse, STATUS_CODES } from 'node:http';

// The answers the front door sends on its own (refusals), and how it sends them: a whole answer
// through node's response, raw bytes on a socket node's parser gave up on, and nginx's
// lingering close after a refused upload.

/** After refusing an upload, read and discard at most this long and this much (nginx's lingering_close). */
export const LINGER_MS = 5000;
export const LINGER_BYTES = 64 * 1024 * 1024;

const JSON_TYPE = 'application/json; charset=utf-8';

/** A whole JSON answer: status, the text, and `headers` (which may override the content type). */
export function sendText(
  response: ServerResponse,
  status: number,
  text: string,
  headers?: Readonly<Record<string, string>>,
  close = false,
): void {
  response.writeHead(status, {
    'content-type': JSON_TYPE,
    'content-length': Buffer.byteLength(text),
    ...(close ? { connection: 'close' } : {}),
    ...headers,
  });
  response.end(text);
}

/** A whole HTTP/1.1 answer as bytes, closing the connection: for sockets node's parser gave up on. */
export function rawAnswer(status: number, text: string): string {
  return `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\ncontent-type: ${JSON_TYPE}\r\ncontent-length: ${Buffer.byteLength(text)}\r\nconnection: close\r\n\r\n${text}`;
}

/** Why node's parser refused a request, as the status and message of the refusal. */
export function parseFailure(error: NodeJS.ErrnoException): [number, string] {
  if (error.code === 'HPE_HEADER_OVERFLOW') return [431, 'request headers are too large'];
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') return [408, 'the request took too long to arrive'];
  return [400, `malformed HTTP request (${error.code ?? 'parse error'})`];
}

/**
 * After a refusal the client may still be sending its body: closing now would make the kernel
 * answer its data with a reset, which destroys the refusal before the client reads it. So, like
 * nginx's lingering_close, half-close and keep reading (and discarding) for a bounded time and
 * size, then close.
 */
export function lingerThenClose(request: IncomingMessage, response: ServerResponse): void {
  const socket = request.socket;
  let discarded = 0;
  const stop = setTimeout(() => socket.destroy(), LINGER_MS);
  stop.unref();
  socket.once('close', () => clearTimeout(stop));
  request.on('data', (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > LINGER_BYTES) socket.destroy();
  });
  request.resume();
  response.once('finish', () => {
    // node ends and then destroys a `connection: close` socket once the answer is out; keep the
    // read side open until the client is done (its FIN) or the bounds above.
    socket.removeListener('finish', socket.destroy);
    socket.once('end', () => socket.destroy());
  });
}
