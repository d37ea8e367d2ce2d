import { type IncomingHttpHeaders, STATUS_CODES } from 'node:http';
import { Pool } from 'undici';
import type { ResolvedProxyOptions } from './types.ts';

/** Headers that belong to one connection, not to the message (RFC 9110 7.6.1): never forwarded. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

type Headers = Record<string, string | string[] | undefined>;

/** The end-to-end headers of a message: hop-by-hop ones and those its Connection header names dropped. */
export function endToEnd(headers: Headers, drop: readonly string[] = []): Record<string, string | string[]> {
  // Node hands header names over in lower case; a Connection header that names others is rare, so
  // its list is made only when there is one (this runs twice for every exchange a proxy forwards).
  const connection = headers.connection;
  const named =
    connection === undefined || connection === 'keep-alive' || connection === 'close'
      ? undefined
      : String(connection)
          .split(',')
          .map((name) => name.trim().toLowerCase())
          .filter(Boolean);
  const out: Record<string, string | string[]> = {};
  for (const name in headers) {
    const value = headers[name];
    if (value === undefined) continue;
    const lower = name.toLowerCase();
    if (HOP_BY_HOP.has(lower) || named?.includes(lower) || drop.includes(lower)) continue;
    out[lower] = value;
  }
  return out;
}

/** Why the upstream gave no answer, as the status the client gets and a message naming the upstream. */
export function noAnswer(
  error: unknown,
  upstream: string,
  timeoutMs: number,
): { status: 502 | 504; message: string } {
  const code = (error as { code?: string })?.code ?? '';
  if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_CONNECT_TIMEOUT')
    return {
      status: 504,
      message: `pacu proxy: the upstream ${upstream} did not answer within ${timeoutMs} ms`,
    };
  const cause = (error as { cause?: { code?: string } })?.cause?.code;
  const why =
    code === 'ECONNREFUSED' || cause === 'ECONNREFUSED'
      ? 'connection refused'
      : code === 'UND_ERR_SOCKET' || code === 'ECONNRESET'
        ? 'the connection was reset before an answer'
        : ((error as Error)?.message ?? String(error));
  return { status: 502, message: `pacu proxy: cannot reach the upstream ${upstream}: ${why}` };
}

export const statusText = (status: number): string => STATUS_CODES[status] ?? '';

/** One connection pool to the upstream, with its CA and time limits. */
export function createUpstream(options: ResolvedProxyOptions): Pool {
  return new Pool(options.upstream.origin, {
    headersTimeout: options.upstreamTimeoutMs,
    bodyTimeout: options.upstreamTimeoutMs,
    connectTimeout: options.upstreamTimeoutMs,
    ...(options.upstreamCa ? { connect: { ca: options.upstreamCa } } : {}),
  });
}

/** What the relay tells the client side as the upstream's answer arrives. */
export interface RelaySink {
  /** The status line and headers arrived (after any 1xx). */
  start(status: number, headers: IncomingHttpHeaders): void;
  /** A chunk of the body; false when the client is slower: `resume` is called once it drained. */
  data(chunk: Buffer, resume: () => void): boolean;
  /** Hand over the way to stop the upstream request (the client left). */
  abortWith(abort: () => void): void;
}

/** The upstream's whole answer as the proxy keeps it. */
export interface Relayed {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly chunks: readonly Buffer[];
  readonly size: number;
}

/**
 * Send one request upstream and pass the answer to `sink` as it arrives, keeping up to `keep`
 * bytes of its body. Undici's dispatch handler, not its `request()`: no stream object and no
 * async iteration per answer. Rejects with `started: true` on the error when the answer had begun.
 */
export function relay(
  upstream: Pool,
  request: { path: string; method: string; headers: Record<string, string | string[]>; body: Buffer | null },
  sink: RelaySink,
  keep: number,
): Promise<Relayed> {
  return new Promise((resolve, reject) => {
    let status = 0;
    let headers: IncomingHttpHeaders = {};
    const chunks: Buffer[] = [];
    let size = 0;
    upstream.dispatch(
      { path: request.path, method: request.method as 'GET', headers: request.headers, body: request.body },
      {
        onRequestStart(controller) {
          sink.abortWith(() => controller.abort(new Error('the client left')));
        },
        onResponseStart(_controller, statusCode, responseHeaders) {
          if (statusCode < 200) return;
          status = statusCode;
          headers = responseHeaders;
          sink.start(statusCode, responseHeaders);
        },
        onResponseData(controller, chunk) {
          size += chunk.length;
          if (size <= keep) chunks.push(chunk);
          if (!sink.data(chunk, () => controller.resume())) controller.pause();
        },
        onResponseEnd() {
          resolve({ status, headers, chunks, size });
        },
        onResponseError(_controller, error) {
          reject(Object.assign(error, { started: status > 0 }));
        },
      },
    );
  });
}
