import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { lingerThenClose, parseFailure, rawAnswer, sendText } from './edge-answers.ts';
import { type ListeningServer, listenHttp } from './listen-http.ts';
import { isRefusal, readTarget } from './request-target.ts';

// The one node:http edge under the mock and the proxy (hono's one Node adapter): limits, time
// limits, request targets, pipelining, half-close and graceful close live here once; each surface
// hands it a handler for the requests that pass.

/** The limits of {@link FrontDoor}, with their defaults. */
export const FRONT_DOOR_DEFAULTS = {
  /** Bytes of request line and headers: over it, 431. */
  maxHeaderSize: 16_384,
  /** Header lines: over it, 431 (node's own cap would drop the rest without a word). */
  maxHeaderLines: 200,
  /** Time a client has to send its headers: then 408 and the connection closed. */
  headersTimeoutMs: 10_000,
  /** Time a client has to send its whole request: then 408 and the connection closed. */
  requestTimeoutMs: 30_000,
  /** An idle kept-alive connection is closed after this. */
  keepAliveTimeoutMs: 5000,
} as const;

export type FrontDoorLimits = { readonly [K in keyof typeof FRONT_DOOR_DEFAULTS]: number };

/** A request that passed the front door: its target resolved, its body whole and within the limit. */
export interface EdgeRequest {
  readonly method: string;
  /** The resolved path, without the query (http/request-target.ts). */
  readonly path: string;
  /** The query with its `?`, as sent, or `''`. */
  readonly search: string;
  /** Lower-case names. */
  readonly headers: IncomingHttpHeaders;
  /** Names as the client spelled them, and values, alternating. */
  readonly rawHeaders: readonly string[];
  readonly body: Buffer;
  /** node's message, for what only a transport has (the socket). */
  readonly message: IncomingMessage;
}

/** What a surface (the mock, the proxy) puts behind the front door. */
export interface FrontDoor {
  readonly host: string;
  readonly port: number;
  readonly limits: FrontDoorLimits;
  /** The largest body a request to `path` may carry: over it, 413. */
  bodyLimit(path: string): number;
  /** The JSON text of a refusal at `path`: the interface's error envelope, or the control API's. */
  errorBody(path: string, status: number, message: string): string;
  /** Answer a request that passed. It answers every request it is given, and never throws. */
  handle(request: EdgeRequest, response: ServerResponse): void;
  log(line: string): void;
}

const NO_BODY = Buffer.alloc(0);

/**
 * A connection's last exchange, and the answer before it: one record per connection, updated in
 * place. An answer that is out is let go (and its request, when whole): kept, it held the exchange,
 * its body and its handler's objects alive while the connection idled.
 */
interface Exchange {
  request: IncomingMessage | undefined;
  response: ServerResponse | undefined;
  previous: ServerResponse | undefined;
}

/** When `response` is out, `last` forgets it, and its request unless that never ended. */
function forgetWhenOut(last: Exchange, message: IncomingMessage, response: ServerResponse): void {
  response.on('finish', () => {
    if (last.previous === response) last.previous = undefined;
    if (last.response !== response) return;
    last.response = undefined;
    // A request answered before its body ended is kept: a parse error in the rest waits on the answer before it.
    if (last.request === message && message.complete) last.request = undefined;
  });
}

/**
 * Serve `door` over node:http, refusing at the edge what reaches no resource here (400, 405 for
 * CONNECT, 408 when slow, 413, 431) with answers in request order on a connection, a half-closed
 * client still answered, and a close() that drains what is in flight (decision 110).
 */
export function openFrontDoor(door: FrontDoor): Promise<ListeningServer> {
  const { limits } = door;
  /** The last exchange on each connection, and the answer before it: a parse error waits for those. */
  const lastExchange = new WeakMap<Socket, Exchange>();
  const server = createServer(
    {
      maxHeaderSize: limits.maxHeaderSize,
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      // Node checks those time limits on this interval (30 s by default): check often enough to matter.
      connectionsCheckingInterval: Math.min(1000, Math.max(50, Math.floor(limits.headersTimeoutMs / 4))),
    },
    (message, response) => {
      let last = lastExchange.get(message.socket);
      if (last) {
        last.previous = last.response;
        last.request = message;
        last.response = response;
      } else {
        last = { request: message, response, previous: undefined };
        lastExchange.set(message.socket, last);
      }
      forgetWhenOut(last, message, response);
      const hasBody =
        message.headers['transfer-encoding'] !== undefined ||
        (message.headers['content-length'] !== undefined && message.headers['content-length'] !== '0');
      const refuse = (path: string, status: number, why: string): void => {
        // A body may still be on its way: read it away, then close, so the client reads the refusal.
        if (hasBody) lingerThenClose(message, response);
        sendText(response, status, door.errorBody(path, status, why), undefined, hasBody);
      };
      const target = readTarget(message.url ?? '/', message.headers.host);
      if (isRefusal(target)) return refuse('/', 400, target.refused);
      const { path, search } = target;
      if (message.rawHeaders.length / 2 > limits.maxHeaderLines)
        return refuse(path, 431, `more than ${limits.maxHeaderLines} header lines`);
      const pass = (body: Buffer): void => {
        const request: EdgeRequest = {
          method: message.method ?? 'GET',
          path,
          search,
          headers: message.headers,
          rawHeaders: message.rawHeaders,
          body,
          message,
        };
        try {
          door.handle(request, response);
        } catch (error) {
          door.log(
            `pacu: unexpected error on ${request.method} ${path}: ${(error as Error)?.stack ?? error}`,
          );
          if (response.headersSent) response.destroy();
          else sendText(response, 500, door.errorBody(path, 500, 'internal error (logged)'));
        }
      };
      // A request with neither Content-Length nor Transfer-Encoding has no body (RFC 9112 6.3): it
      // is handled at once, with no stream read to its end first (a tick and four listeners less).
      if (!hasBody) return pass(NO_BODY);
      const limit = door.bodyLimit(path);
      const tooLarge = (): void => refuse(path, 413, `request body is over ${limit} bytes`);
      if (Number(message.headers['content-length'] ?? 0) > limit) return tooLarge();
      const chunks: Buffer[] = [];
      let size = 0;
      const collect = (chunk: Buffer): void => {
        size += chunk.length;
        if (size > limit) {
          message.off('data', collect);
          chunks.length = 0;
          if (!response.headersSent) tooLarge();
          return;
        }
        chunks.push(chunk);
      };
      message.on('data', collect);
      message.on('end', () => {
        if (size > limit || response.headersSent) return;
        // Most bodies arrive in one chunk: no copy for them.
        pass(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size));
      });
      message.on('error', () => message.destroy());
    },
  );
  // Header lines are counted above (431): node's own cap drops the ones past it without a word.
  server.maxHeadersCount = 0;
  server.keepAliveTimeout = limits.keepAliveTimeoutMs;
  // A client that half-closes after its request (shutdown(SHUT_WR)) still reads its answer; node
  // would otherwise abort the request in flight at the client's FIN.
  (server as unknown as { httpAllowHalfOpen: boolean }).httpAllowHalfOpen = true;
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    const [status, why] = parseFailure(error);
    let answered = false;
    const answer = (): void => {
      if (answered) return;
      answered = true;
      if (socket.writable) socket.end(rawAnswer(status, door.errorBody('/', status, why)));
      socket.destroySoon();
    };
    const last = lastExchange.get(socket);
    // A body whose framing broke (a chunk size that is not hex) fails after its request was
    // emitted: that request will never end, so answer it in its place, after the one before it.
    const pending = last?.request && !last.request.complete ? last.previous : last?.response;
    if (pending && !pending.writableFinished && !pending.destroyed) {
      pending.once('finish', answer);
      pending.once('close', answer);
    } else answer();
  });
  // CONNECT asks for a tunnel, which neither the interface nor pacu offers: 405 with the envelope.
  server.on('connect', (request: IncomingMessage, socket: Socket) => {
    const why = `${request.method} is not allowed on ${request.url}`;
    socket.end(rawAnswer(405, door.errorBody('/', 405, why)));
  });
  return listenHttp(server, door.host, door.port);
}
