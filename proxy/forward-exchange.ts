import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import type { Pool } from 'undici';
import {
  type AnswerError,
  type EdgeRequest,
  endToEnd,
  endToEndLines,
  errorEnvelopeText,
  type ObservedAnswer,
  type RequestPipeline,
  sendText,
} from '../http/index.ts';
import type { RouteResult } from '../spec/index.ts';
import type { AnswerText } from './answer-texts.ts';
import { noAnswer, type Relayed, type RelaySink, relay, type UpstreamRequest } from './forward.ts';
import { ForwardedRequest } from './forwarded-request.ts';
import { KEPT_BODY_BYTES, ProxyAnswer, refusalAnswer } from './proxy-answer.ts';

/** Request headers that are this hop's: Expect: 100-continue was answered here (undici refuses to send it on). */
const HOP_REQUEST_HEADERS = ['host', 'content-length', 'expect'];
/** Methods undici sends a Content-Length with even when the body is empty. */
const PAYLOAD_METHODS = new Set(['POST', 'PUT', 'PATCH', 'QUERY', 'PROPFIND', 'PROPPATCH']);
/** Statuses whose answers never have a body, whatever their headers say (RFC 9112 6.3). */
const BODILESS = new Set([204, 304]);

/** What every forwarded exchange of one proxy shares. */
export interface ForwardContext {
  readonly pool: Pool;
  readonly pipeline: RequestPipeline;
  readonly answerText: (method: string, body: Buffer, encoding: string | string[] | undefined) => AnswerText;
  /** The upstream's base URL, for messages. */
  readonly upstreamBase: string;
  /** The upstream's Host (`host:port`), sent as this hop's Host. */
  readonly upstreamHost: string;
  /** What the upstream's paths start with before the interface's base path. */
  readonly upstreamRoot: string;
  readonly upstreamTimeoutMs: number;
  readonly basePath: string;
  readonly route: (method: string, path: string) => RouteResult;
  /** The next exchange's number, from 1. */
  next(): number;
  /** An error of the proxy's own: logged once, and the client answered 502 or cut. */
  failed(request: EdgeRequest, response: ServerResponse, error: unknown): void;
}

/**
 * One exchange from the client's request to the pipeline's end event: the request goes upstream,
 * the answer to the client as it arrives, all but its last bytes, which leave once the pipeline's
 * recording has the exchange. One object per exchange holds what the relay tells it.
 */
class ForwardedExchange implements RelaySink {
  readonly #context: ForwardContext;
  readonly #request: EdgeRequest;
  readonly #response: ServerResponse;
  readonly #observed: ForwardedRequest;
  readonly #routed: RouteResult;
  readonly #operationId: string | undefined;
  readonly #seq: number;
  readonly #startedAt = Date.now();
  readonly #started = performance.now();
  readonly #lines: string[];
  readonly #body: Buffer | null;
  #headers: Record<string, string | string[]> = {};
  #expected: number | undefined;
  #sent = 0;
  /** The chunk that completes a Content-Length body: it leaves after the recording has the exchange. */
  #last: Buffer | undefined;
  #clientLeft = false;
  #upstream: UpstreamRequest | undefined;

  constructor(context: ForwardContext, request: EdgeRequest, response: ServerResponse) {
    this.#context = context;
    this.#request = request;
    this.#response = response;
    const { pipeline } = context;
    const { method, body } = request;
    // What goes upstream, as undici writes it: Host first, the client's end-to-end lines as they
    // came (each duplicate in its place), the body's length last. The recording keeps these lines.
    this.#lines = ['host', context.upstreamHost, ...endToEndLines(request.rawHeaders, HOP_REQUEST_HEADERS)];
    this.#body = body.length > 0 ? body : null;
    const length = body.length > 0 || PAYLOAD_METHODS.has(method) ? body.length : undefined;
    const observed = new ForwardedRequest(
      request,
      length === undefined ? this.#lines : [...this.#lines, 'content-length', String(length)],
    );
    this.#observed = observed;
    pipeline.start(observed);
    this.#routed = context.route(request.method, request.path.slice(context.basePath.length));
    this.#operationId = this.#routed.kind === 'operation' ? this.#routed.operation.id : undefined;
    if (this.#operationId) pipeline.match(observed, this.#operationId);
    this.#seq = context.next();
    // Emitted once: a plain listener, without the wrapper once() makes.
    response.on('close', () => {
      if (response.writableFinished) return;
      this.#clientLeft = true;
      this.#upstream?.abort();
    });
  }

  send(): void {
    const request = this.#request;
    this.#upstream = relay(
      this.#context.pool,
      {
        path: `${this.#context.upstreamRoot}${request.path}${request.search}`,
        method: request.method,
        headers: this.#lines,
        body: this.#body,
      },
      this,
      KEPT_BODY_BYTES,
    );
    if (this.#clientLeft) this.#upstream.abort();
  }

  start(status: number, received: IncomingHttpHeaders): void {
    const headers = endToEnd(received);
    // A 204 has no body whatever its headers say (RFC 9112 6.3), and no sender may give it a length
    // (RFC 9110 8.6): browsers read none (Chromium sets its body length to 0); the proxy drops it.
    if (status === 204) delete headers['content-length'];
    // A proxy adds the Date an answer came without (RFC 9110 6.6.1): node would, unrecorded.
    headers.date ??= new Date().toUTCString();
    this.#headers = headers;
    const length = headers['content-length'];
    this.#expected =
      length === undefined || BODILESS.has(status) || this.#request.method === 'HEAD'
        ? undefined
        : Number(length);
    this.#response.writeHead(status, headers);
  }

  informational(status: number, received: IncomingHttpHeaders): void {
    // Early hints go on to the client, which may act on them (RFC 8297); a 100 or 102 is this hop's.
    const link = received.link;
    if (status === 103 && link !== undefined && !this.#response.headersSent)
      this.#response.writeEarlyHints({ ...endToEnd(received), link });
  }

  data(chunk: Buffer): boolean {
    this.#sent += chunk.length;
    if (this.#expected !== undefined && this.#sent >= this.#expected) {
      this.#last = chunk;
      return true;
    }
    if (this.#response.write(chunk)) return true;
    this.#response.once('drain', () => this.#upstream?.resume());
    return false;
  }

  end(outcome: Relayed): void {
    try {
      this.#ended(outcome);
    } catch (error) {
      this.#context.failed(this.#request, this.#response, error);
    }
  }

  #ended(outcome: Relayed): void {
    const durationMs = performance.now() - this.#started;
    const response = this.#response;
    const { upstreamBase, upstreamTimeoutMs } = this.#context;
    if (this.#clientLeft) {
      // The answer never reached the client: recorded as browsers record a cancelled request.
      const message = 'the client left before its answer was whole';
      this.#tell(outcome.status, this.#answer(outcome, durationMs, { kind: 'left', message }));
    } else if (outcome.error === undefined)
      this.#tell(outcome.status, this.#answer(outcome, durationMs), () => response.end(this.#last));
    else if (outcome.status > 0) {
      // The upstream broke off mid-answer: recorded as far as it came, then the client is cut too.
      const expected = this.#expected;
      const message = `the upstream ${upstreamBase} broke off its answer after ${outcome.size} bytes${expected === undefined ? '' : ` of ${expected}`}`;
      this.#tell(outcome.status, this.#answer(outcome, durationMs, { kind: 'cut', message }), () => {
        // The client sees the status that came and the bytes that followed, then the cut, as it
        // would from the upstream itself: the connection ends once they are out, not before.
        // (writeHead only keeps the head until the first write: `headersSent` is already true.)
        response.flushHeaders();
        if (response.socket) response.socket.destroySoon();
        else response.destroy();
      });
    } else {
      const { status, message } = noAnswer(outcome.error, upstreamBase, upstreamTimeoutMs);
      const text = errorEnvelopeText(message);
      const error: AnswerError = { kind: status === 504 ? 'timeout' : 'no-answer', message };
      this.#tell(status, refusalAnswer(text, durationMs, error), () => sendText(response, status, text));
    }
  }

  #answer(outcome: Relayed, durationMs: number, error?: AnswerError): ProxyAnswer {
    const { method } = this.#request;
    return new ProxyAnswer(
      this.#context.answerText,
      method,
      this.#headers,
      outcome.chunks,
      outcome.size,
      durationMs,
      error,
    );
  }

  /**
   * Tell the pipeline how it ended; `release` sends what is left once the recording has it. When
   * the recording could not keep it and the proxy stops rather than answer unrecorded, the client's
   * connection is cut instead.
   */
  #tell(status: number, answer: ObservedAnswer, release?: () => void): void {
    this.#context.pipeline.end(
      {
        seq: this.#seq,
        startedAt: this.#startedAt,
        request: this.#observed,
        operationId: this.#operationId,
        route: this.#routed,
        clientId: undefined,
        status,
        fault: undefined,
        answer,
      },
      release,
      release && (() => this.#response.destroy()),
    );
  }
}

/** Forward one request that passed the front door and the proxy's own checks. */
export function forwardExchange(
  context: ForwardContext,
  request: EdgeRequest,
  response: ServerResponse,
): void {
  new ForwardedExchange(context, request, response).send();
}
