import { type IncomingHttpHeaders, STATUS_CODES } from 'node:http';
import { buildConnector, type Dispatcher, Pool } from 'undici';
import { skipContinue } from './skip-continue.ts';
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

/** One connection pool to the upstream, with its CA and time limits; its connections read past a 100 Continue. */
export function createUpstream(options: ResolvedProxyOptions): Pool {
  const connect = buildConnector({
    timeout: options.upstreamTimeoutMs,
    ...(options.upstreamCa ? { ca: options.upstreamCa } : {}),
  });
  return new Pool(options.upstream.origin, {
    headersTimeout: options.upstreamTimeoutMs,
    bodyTimeout: options.upstreamTimeoutMs,
    connect: (connection, callback) =>
      connect(connection, (error, socket) =>
        error ? callback(error, null) : callback(null, skipContinue(socket as NonNullable<typeof socket>)),
      ),
  });
}

/** What the relay tells the client side as the upstream's answer arrives, and how it ended. */
export interface RelaySink {
  /** The status line and headers arrived (after any 1xx). */
  start(status: number, headers: IncomingHttpHeaders): void;
  /** A 1xx before them (a 103 Early Hints): passed on, neither judged nor recorded. */
  informational(status: number, headers: IncomingHttpHeaders): void;
  /** A chunk of the body; false when the client is slower: the relay waits for its `resume()`. */
  data(chunk: Buffer): boolean;
  /** The answer ended, whole or not (then with `error`; a status above 0 says it had begun). */
  end(answer: Relayed): void;
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

/** One request upstream, as the client side steers it. */
export interface UpstreamRequest {
  /** Stop it (the client left); it then ends with an error. */
  abort(): void;
  /** Read on after `data` said the client was slower. */
  resume(): void;
}

/**
 * Undici's dispatch handler for one request, which is also what it relays: one object per
 * exchange, no stream, promise or closure per answer or chunk.
 */
class Relay implements Dispatcher.DispatchHandler, Relayed, UpstreamRequest {
  status = 0;
  headers: IncomingHttpHeaders = {};
  readonly chunks: Buffer[] = [];
  size = 0;
  error: unknown = undefined;
  #controller: Dispatcher.DispatchController | undefined;
  #aborted = false;
  #ended = false;
  readonly #sink: RelaySink;
  readonly #keep: number;

  constructor(sink: RelaySink, keep: number) {
    this.#sink = sink;
    this.#keep = keep;
  }

  abort(): void {
    this.#aborted = true;
    this.#controller?.abort(new Error('the client left'));
  }

  resume(): void {
    this.#controller?.resume();
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.#controller = controller;
    if (this.#aborted) controller.abort(new Error('the client left'));
  }

  onResponseStart(
    _controller: Dispatcher.DispatchController,
    statusCode: number,
    headers: IncomingHttpHeaders,
  ): void {
    if (statusCode < 200) {
      this.#sink.informational(statusCode, headers);
      return;
    }
    this.status = statusCode;
    this.headers = headers;
    this.#sink.start(statusCode, headers);
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.size += chunk.length;
    if (this.size <= this.#keep) this.chunks.push(chunk);
    if (!this.#sink.data(chunk)) controller.pause();
  }

  onResponseEnd(): void {
    this.#end(undefined);
  }

  onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
    // undici holds a 204 or 304 to its Content-Length; RFC 9112 6.3 and browsers read no body
    // there whatever the headers say (Chromium's HttpStreamParser sets its length to 0): whole.
    const code = (error as { code?: string }).code;
    const bodiless =
      (this.status === 204 || this.status === 304) && code === 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH';
    this.#end(bodiless ? undefined : error);
  }

  /** Tell the sink once, however undici ends (an error after a refusal at dispatch, say). */
  #end(error: unknown): void {
    if (this.#ended) return;
    this.#ended = true;
    this.error = error;
    this.#sink.end(this);
  }

  fail(error: unknown): void {
    this.#end(error);
  }
}

/**
 * Send one request upstream and pass the answer to `sink` as it arrives, keeping up to `keep`
 * bytes of its body; `sink.end` is told once when it ended, whole or not.
 */
export function relay(
  upstream: Pool,
  request: { path: string; method: string; headers: readonly string[]; body: Buffer | null },
  sink: RelaySink,
  keep: number,
): UpstreamRequest {
  const handler = new Relay(sink, keep);
  try {
    upstream.dispatch(
      {
        path: request.path,
        method: request.method as 'GET',
        headers: request.headers as string[],
        body: request.body,
      },
      handler,
    );
  } catch (error) {
    // undici refuses some requests at once (a header value it will not send).
    handler.fail(error);
  }
  return handler;
}
