import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { CONTROL_PREFIX, type ListeningServer, listenHttp } from '../http/index.ts';
import { ConfigError, DECIDED_LIMITS } from '../spec/index.ts';

const NO_BODY = Buffer.alloc(0);

/** After a 413, what the client still sends is read and dropped this long, so it reads the 413. */
const LINGER_MS = 5000;

export interface ProxyHandlers {
  /** A request on the interface, its body whole and within the limit; `clientGone` turns true if it leaves. */
  forward(
    request: IncomingMessage,
    response: ServerResponse,
    body: Buffer,
    clientGone: () => boolean,
  ): Promise<void>;
  /** A request under /__pacu: the status and JSON body of its answer. */
  control(request: IncomingMessage, path: string): [number, unknown];
  log(line: string): void;
}

export type ProxyListener = ListeningServer;

export function sendJson(response: ServerResponse, status: number, body: unknown, close = false): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    ...(close ? { connection: 'close' } : {}),
  });
  response.end(text);
}

/** The interface's error envelope, for the answers the proxy makes itself (413, 502, 504). */
export const envelope = (message: string): { success: false; message: string } => ({
  success: false,
  message,
});

function linger(request: IncomingMessage): void {
  const stop = setTimeout(() => request.socket.destroy(), LINGER_MS);
  stop.unref();
  request.socket.once('close', () => clearTimeout(stop));
  request.resume();
}

/**
 * The proxy's side facing the client: node:http with the mock's body limit (413 and a lingering
 * read), the control API under /__pacu, and every other request handed to `forward` once its body
 * is whole. A client that leaves before that sends nothing upstream.
 */
export async function listenProxy(
  host: string,
  port: number,
  handlers: ProxyHandlers,
): Promise<ProxyListener> {
  const server = createServer({ requestTimeout: 0 }, (request, response) => {
    const url = request.url ?? '/';
    const path = url.split('?')[0] ?? url;
    if (path === CONTROL_PREFIX || path.startsWith(`${CONTROL_PREFIX}/`)) {
      request.resume();
      const [status, body] = handlers.control(request, path);
      sendJson(response, status, body);
      return;
    }
    const send = (body: Buffer, clientGone: () => boolean): void => {
      handlers.forward(request, response, body, clientGone).catch((error: Error) => {
        handlers.log(
          `pacu proxy: unexpected error on ${request.method} ${path}: ${error.stack ?? error.message}`,
        );
        if (!response.headersSent) sendJson(response, 502, envelope('pacu proxy: internal error (logged)'));
        else response.destroy();
      });
    };
    const length = request.headers['content-length'];
    // A request with neither Content-Length nor Transfer-Encoding has no body (RFC 9112 6.3): it
    // is forwarded at once, with no stream read to its end first (most reads: a tick and four
    // listeners less per exchange). A client that leaves is seen by forward's own close listener.
    if (request.headers['transfer-encoding'] === undefined && (length === undefined || length === '0'))
      return send(NO_BODY, () => false);
    const limit = DECIDED_LIMITS.maxBodyBytes;
    const refuse = (): void => {
      linger(request);
      sendJson(response, 413, envelope(`request body is over ${limit} bytes`), true);
    };
    if (Number(length ?? 0) > limit) return refuse();
    const chunks: Buffer[] = [];
    let size = 0;
    let gone = false;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        chunks.length = 0;
        if (!response.headersSent) refuse();
        return;
      }
      chunks.push(chunk);
    });
    request.on('close', () => {
      if (!request.complete) gone = true;
    });
    response.on('close', () => {
      if (!response.writableFinished) gone = true;
    });
    request.on('error', () => request.destroy());
    request.on('end', () => {
      if (size > limit || gone || response.headersSent) return;
      send(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks), () => gone);
    });
  });
  server.keepAliveTimeout = 5000;
  try {
    return await listenHttp(server, host, port);
  } catch (error) {
    throw new ConfigError(`pacu: cannot listen on ${host}:${port}: ${(error as Error).message}`, {
      cause: error,
    });
  }
}
