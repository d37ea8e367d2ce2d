import { createServer, type IncomingMessage, type ServerResponse, STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { type ListeningServer, listenHttp } from '../../http/index.ts';
import { errorFor, replyText, tooLargeReply } from './envelope.ts';
import type { MockReply, MockRequest } from './http-types.ts';
import { BODY_LIMIT_BYTES, CONTROL_BODY_LIMIT_BYTES } from './limits.ts';
import { isControlPath } from './request-core.ts';

export interface ServerLimits {
  maxHeaderSize: number;
  headersTimeoutMs: number;
  requestTimeoutMs: number;
}

interface Exchange {
  request: IncomingMessage;
  response: ServerResponse;
  previous: ServerResponse | undefined;
}

/** nginx's lingering_close: after refusing an upload, read and discard at most this long and this much. */
export const LINGER_MS = 5000;
export const LINGER_BYTES = 64 * 1024 * 1024;

function send(response: ServerResponse, reply: MockReply, closeConnection = false): void {
  if (reply.transport?.kind === 'drop') {
    // A fault: the client sees its connection reset with no answer at all.
    response.socket?.resetAndDestroy();
    return;
  }
  const text = replyText(reply);
  response.writeHead(reply.status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    ...(closeConnection ? { connection: 'close' } : {}),
    ...reply.headers,
  });
  response.end(text);
}

/** A whole HTTP/1.1 answer as bytes, for sockets node's parser has given up on. */
function rawAnswer(reply: MockReply): string {
  const text = replyText(reply);
  return `HTTP/1.1 ${reply.status} ${STATUS_CODES[reply.status] ?? ''}\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(text)}\r\nconnection: close\r\n\r\n${text}`;
}

function pathOf(url: string): string {
  const queryAt = url.indexOf('?');
  return queryAt < 0 ? url : url.slice(0, queryAt);
}

function toMockRequest(request: IncomingMessage, body: Buffer): MockRequest {
  const url = request.url ?? '/';
  const queryAt = url.indexOf('?');
  return {
    method: request.method ?? 'GET',
    path: pathOf(url),
    query: new URLSearchParams(queryAt < 0 ? '' : url.slice(queryAt + 1)),
    headers: request.headers as Record<string, string | undefined>,
    body,
    headerLines: request.rawHeaders.length / 2,
  };
}

/** Why node's parser refused a request, as the status and message of the envelope. */
function parseFailure(error: NodeJS.ErrnoException): [number, string] {
  if (error.code === 'HPE_HEADER_OVERFLOW') return [431, 'request headers are too large'];
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') return [408, 'the request took too long to arrive'];
  return [400, `malformed HTTP request (${error.code ?? 'parse error'})`];
}

/**
 * After a 413 the client may still be sending: closing now would make the kernel answer its data
 * with a reset, which destroys our 413 before the client reads it. So, like nginx's lingering_close,
 * half-close and keep reading (and discarding) for a bounded time and size, then close.
 */
function lingerThenClose(request: IncomingMessage, response: ServerResponse): void {
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

/**
 * Serve `handle` over node:http with the hostile-input limits: header size and time, whole-request
 * time, a body cap (413, then a lingering close). Answers leave in request order on a connection,
 * and a request node cannot parse gets the envelope after the answers before it.
 */
export function listen(
  handle: (request: MockRequest) => Promise<MockReply>,
  host: string,
  port: number,
  limits: ServerLimits,
): Promise<ListeningServer> {
  /** The last exchange on each connection, and the answer before it: a parse error waits for those. */
  const lastExchange = new WeakMap<Socket, Exchange>();
  const server = createServer(
    {
      maxHeaderSize: limits.maxHeaderSize,
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      // Node checks those timeouts on this interval (30 s by default): check often enough to matter.
      connectionsCheckingInterval: Math.min(1000, Math.max(50, Math.floor(limits.headersTimeoutMs / 4))),
    },
    (request, response) => {
      lastExchange.set(request.socket, {
        request,
        response,
        previous: lastExchange.get(request.socket)?.response,
      });
      const path = pathOf(request.url ?? '/');
      const limit = isControlPath(path) ? CONTROL_BODY_LIMIT_BYTES : BODY_LIMIT_BYTES;
      const refuse = (): void => {
        lingerThenClose(request, response);
        send(response, tooLargeReply(path, limit), true);
      };
      if (Number(request.headers['content-length'] ?? 0) > limit) return refuse();
      const chunks: Buffer[] = [];
      let size = 0;
      const collect = (chunk: Buffer): void => {
        size += chunk.length;
        if (size > limit) {
          request.off('data', collect);
          chunks.length = 0;
          if (!response.headersSent) refuse();
          return;
        }
        chunks.push(chunk);
      };
      request.on('data', collect);
      request.on('end', () => {
        if (size > limit || response.headersSent) return;
        // Most bodies arrive in one chunk (and GETs in none): no copy for them.
        const body = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks);
        void handle(toMockRequest(request, body)).then((reply) => send(response, reply));
      });
      request.on('error', () => request.destroy());
    },
  );
  // Count header lines ourselves (431 over 200): node's own cap drops the rest without a word.
  server.maxHeadersCount = 0;
  server.keepAliveTimeout = 5000;
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    const [status, message] = parseFailure(error);
    let answered = false;
    const answer = (): void => {
      if (answered) return;
      answered = true;
      if (socket.writable) socket.end(rawAnswer(errorFor('/v3', status, message)));
      socket.destroySoon();
    };
    const last = lastExchange.get(socket);
    // A body whose framing broke (a chunk size that is not hex) fails after its request was
    // emitted: that request will never end, so answer it in its place, after the one before it.
    const pending = last && !last.request.complete ? last.previous : last?.response;
    if (pending && !pending.writableFinished && !pending.destroyed) {
      pending.once('finish', answer);
      pending.once('close', answer);
    } else answer();
  });
  // CONNECT is no method of the interface: 405 with the envelope, like any other unknown method.
  server.on('connect', (request: IncomingMessage, socket: Socket) => {
    const reply = errorFor(
      pathOf(request.url ?? '/'),
      405,
      `${request.method} is not allowed on ${request.url}`,
    );
    socket.end(rawAnswer(reply));
  });
  return listenHttp(server, host, port);
}
