import { type IncomingHttpHeaders, STATUS_CODES } from 'node:http';
import { type Dispatcher, Pool } from 'undici';
import type { ResolvedProxyOptions } from './types.ts';

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

/** The upstream's answer as the proxy keeps it: whole, or as far as it came before `error`. */
export interface Relayed {
  /** 0 when no answer started. */
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly chunks: readonly Buffer[];
  readonly size: number;
  /** Why the answer did not come whole (undefined when it did). */
  readonly error: unknown;
}

/**
 * Send one request upstream and pass the answer to `sink` as it arrives, keeping up to `keep`
 * bytes of its body. Undici's dispatch handler, not its `request()`: no stream object and no
 * async iteration per answer. Resolves when the answer ended, whole or not (then with `error`;
 * a status above 0 says it had begun).
 */
export function relay(
  upstream: Pool,
  request: { path: string; method: string; headers: Record<string, string | string[]>; body: Buffer | null },
  sink: RelaySink,
  keep: number,
): Promise<Relayed> {
  return new Promise((resolve) => {
    let status = 0;
    let headers: IncomingHttpHeaders = {};
    const chunks: Buffer[] = [];
    let size = 0;
    const handler: Dispatcher.DispatchHandler = {
      onRequestStart(controller) {
        sink.abortWith(() => controller.abort(new Error('the client left')));
      },
      onResponseStart(_controller, statusCode, responseHeaders) {
        if (statusCode < 200) return;
        status = statusCode;
        headers = responseHeaders as IncomingHttpHeaders;
        sink.start(statusCode, headers);
      },
      onResponseData(controller, chunk) {
        size += chunk.length;
        if (size <= keep) chunks.push(chunk);
        if (!sink.data(chunk, () => controller.resume())) controller.pause();
      },
      onResponseEnd() {
        resolve({ status, headers, chunks, size, error: undefined });
      },
      onResponseError(_controller, error) {
        resolve({ status, headers, chunks, size, error });
      },
    };
    try {
      upstream.dispatch(
        { path: request.path, method: request.method as 'GET', headers: request.headers, body: request.body },
        handler,
      );
    } catch (error) {
      // undici refuses some requests at once (a header value it will not send).
      resolve({ status, headers, chunks, size, error });
    }
  });
}
