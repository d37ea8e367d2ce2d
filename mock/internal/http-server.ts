import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BODY_LIMIT_BYTES, type MockReply, type MockRequest } from './http-types.ts';

export interface ServerLimits {
  maxHeaderSize: number;
  headersTimeoutMs: number;
  requestTimeoutMs: number;
}

export interface ListeningServer {
  origin: string;
  close(): Promise<void>;
}

/** The control API takes whole state dumps, so it gets a larger body limit than /v3. */
const CONTROL_BODY_LIMIT_BYTES = 256 * 1024 * 1024;
/** After close() starts, requests in flight get this long before their connections are cut. */
const CLOSE_GRACE_MS = 5000;

function send(response: ServerResponse, reply: MockReply, closeConnection = false): void {
  const text = JSON.stringify(reply.body);
  response.writeHead(reply.status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    ...(closeConnection ? { connection: 'close' } : {}),
    ...reply.headers,
  });
  response.end(text);
}

function tooLarge(limit: number): MockReply {
  return { status: 413, body: { success: false, message: `request body is over ${limit} bytes` } };
}

function toMockRequest(request: IncomingMessage, body: Buffer): MockRequest {
  const url = request.url ?? '/';
  const queryAt = url.indexOf('?');
  return {
    method: request.method ?? 'GET',
    path: queryAt < 0 ? url : url.slice(0, queryAt),
    query: new URLSearchParams(queryAt < 0 ? '' : url.slice(queryAt + 1)),
    headers: request.headers as Record<string, string | undefined>,
    body,
  };
}

/**
 * Serve `handle` over node:http with the hostile-input limits: header size and time, whole-request
 * time, a body cap (413 and the connection closed). `handle` never throws: it answers errors itself.
 */
export function listen(
  handle: (request: MockRequest) => MockReply,
  host: string,
  port: number,
  limits: ServerLimits,
): Promise<ListeningServer> {
  const server = createServer(
    {
      maxHeaderSize: limits.maxHeaderSize,
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      // Node checks those timeouts on this interval (30 s by default): check often enough to matter.
      connectionsCheckingInterval: Math.min(1000, Math.max(50, Math.floor(limits.headersTimeoutMs / 4))),
    },
    (request, response) => {
      const limit = request.url?.startsWith('/__pacu') ? CONTROL_BODY_LIMIT_BYTES : BODY_LIMIT_BYTES;
      const refuse = (): void => {
        // Answer now and drop the rest of the upload: reading it would let one client hold us.
        response.once('finish', () => request.destroy());
        send(response, tooLarge(limit), true);
      };
      if (Number(request.headers['content-length'] ?? 0) > limit) return refuse();
      const chunks: Buffer[] = [];
      let size = 0;
      request.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > limit) {
          request.removeAllListeners('data');
          request.pause();
          if (!response.headersSent) refuse();
          return;
        }
        chunks.push(chunk);
      });
      request.on('end', () => {
        if (size > limit || response.headersSent) return;
        send(response, handle(toMockRequest(request, Buffer.concat(chunks))));
      });
      request.on('error', () => request.destroy());
    },
  );
  server.maxHeadersCount = 200;
  server.keepAliveTimeout = 5000;
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      const address = server.address() as AddressInfo;
      const hostPart = address.family === 'IPv6' ? `[${address.address}]` : address.address;
      resolve({
        origin: `http://${hostPart}:${address.port}`,
        close: () =>
          new Promise<void>((done) => {
            const force = setTimeout(() => server.closeAllConnections(), CLOSE_GRACE_MS);
            force.unref();
            server.close(() => {
              clearTimeout(force);
              done();
            });
            server.closeIdleConnections();
          }),
      });
    });
  });
}
