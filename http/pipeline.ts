import type { RouteResult } from '../spec/index.ts';
import type { FiredFault } from './control-protocol.ts';

// The events of a request pipeline, msw-style (handleRequest's request:start / match / end, whose
// end carries the response): the mock and the proxy emit them, and whatever only watches (the
// recording, the journal, coverage, the judge) subscribes. What changes the answer (a fault) is a
// layer of the mock, never an observer.

/** A request as a pipeline saw it arrive; `path` is the whole resolved path (`/v3/users`), without the query. */
export interface ObservedRequest {
  readonly method: string;
  readonly path: string;
  readonly query: URLSearchParams;
  /** The query as sent, with its `?`, or `''`; undefined where the request never had one (in-process). */
  readonly search?: string;
  /** Lower-case names. */
  readonly headers: Readonly<Record<string, string | undefined>>;
  /**
   * The header lines as the request went on past this surface, names as spelled and values,
   * alternating: the mock's as it received them, the proxy's as the upstream received them.
   * Undefined in-process. What a recording keeps.
   */
  readonly rawHeaders?: readonly string[];
  readonly body: Buffer;
  /** `body` decoded as UTF-8, filled in by the first reader that needs it. */
  decoded?: string;
}

/** A request's body as UTF-8 text, decoded once however many readers (parser, journal, recording) ask. */
export function bodyText(request: { readonly body: Buffer; decoded?: string }): string {
  request.decoded ??= request.body.toString('utf8');
  return request.decoded;
}

/** Why an answer is not a whole one from the provider. */
export interface AnswerError {
  /**
   * `cut`: it broke off after its status was sent; `no-answer`: the provider could not be reached
   * or reset before answering (the proxy sent 502); `timeout`: it did not answer in time (504);
   * `dropped`: the connection was reset on purpose, with no answer (a mock fault); `left`: the
   * client left before its answer was whole.
   */
  readonly kind: 'cut' | 'no-answer' | 'timeout' | 'dropped' | 'left';
  /** One line, for a recording's `_error` and a finding's reason. */
  readonly message: string;
}

/** The answer a request got, as it left (or as far as it got). */
export interface ObservedAnswer {
  /** Lower-case names, as sent to the client (a proxy's: the upstream's end-to-end ones). */
  readonly headers: Readonly<Record<string, string | readonly string[]>>;
  /** The body as text, undone from its Content-Encoding: all of it, or what was kept of it (see `whole`). */
  readonly text: string;
  /** Bytes of body sent. */
  readonly bytes: number;
  /**
   * The body's bytes, undone from its Content-Encoding, when they are not UTF-8 (`text` then holds
   * them with U+FFFD in places): what a recording writes as base64. Undefined for a UTF-8 body.
   */
  readonly binary?: Buffer;
  /** Whether `text` is the whole body: a body past what the surface keeps is sent but not kept. */
  readonly whole: boolean;
  /** Whether the same text was answered before (so whatever looks at texts has seen it). */
  readonly repeated: boolean;
  /** From the request whole to the answer's end. */
  readonly durationMs: number;
  readonly error: AnswerError | undefined;
}

/** How a request ended: in order of arrival, its operation and client when known, its answer. */
export interface RequestEnd {
  /** Order of arrival on this surface, from 1. */
  readonly seq: number;
  /** When the request arrived, ms since the epoch. */
  readonly startedAt: number;
  readonly request: ObservedRequest;
  readonly operationId: string | undefined;
  /** The route spec's router found, when the surface routed with it (the proxy and the mock do; judges reuse it). */
  readonly route?: RouteResult;
  readonly clientId: string | undefined;
  /** The status sent; 0 when the connection was dropped without one. */
  readonly status: number;
  /** A mock fault that shaped the answer; never set by the proxy. */
  readonly fault: FiredFault | undefined;
  readonly answer: ObservedAnswer;
}

/** Watches every request on the interface; each method is optional and must not throw. */
export interface RequestObserver {
  /** The request arrived (after the transport's limits). */
  start?(request: ObservedRequest): void;
  /** The request routes to this operation. */
  match?(request: ObservedRequest, operationId: string): void;
  /** The answer is ready and its last bytes are not yet handed to the socket. */
  end?(event: RequestEnd): void;
  /**
   * Make what `end` was told this turn of the event loop survive a crash of the process (the
   * recording writes it), synchronously: the answers of those exchanges leave right after. False
   * when they must not leave (they could not be kept, and the surface stops rather than answer
   * unrecorded): they are cut instead.
   */
  flush?(): boolean | undefined;
  /** After the answer left, in the event loop's check phase, in order: what judges, counts or keeps. */
  settled?(event: RequestEnd): void;
  /** The surface stops: flush and let go. */
  close?(): void | Promise<void>;
}

/** The observers of one surface, told in the order given. */
export interface RequestPipeline {
  start(request: ObservedRequest): void;
  match(request: ObservedRequest, operationId: string): void;
  /**
   * The answer is ready: `release` hands its last bytes to the client. With an observer that
   * flushes (a recording), `release` waits for the flush at the end of this turn of the event
   * loop, which writes every exchange that ended in it at once; without one, it is called now.
   * `abandon` cuts the answer instead, when the flush says it must not leave (else `release`).
   */
  end(event: RequestEnd, release?: () => void, abandon?: () => void): void;
  /** Whether `end` holds answers back until a flush (then `release` is called later). */
  readonly holdsAnswers: boolean;
  /** Tell `settled` now for every event still waiting (close() does this first). */
  drain(): void;
  close(): Promise<void>;
}

/**
 * One pipeline over `observers`. `end` is told at once; at the event loop's check phase, the
 * observers that flush write what ended in this turn (one write for all of it), the answers held
 * for it are released, and then `settled` is told of each: judging stays off the answer's path.
 * An observer that throws is logged and the others are still told.
 */
export function createPipeline(
  observers: readonly RequestObserver[],
  log: (line: string) => void,
): RequestPipeline {
  const starts = observers.filter((observer) => observer.start);
  const matches = observers.filter((observer) => observer.match);
  const ends = observers.filter((observer) => observer.end);
  const settles = observers.filter((observer) => observer.settled);
  const flushes = observers.filter((observer) => observer.flush);
  const failed = (error: unknown): void =>
    log(`pacu: an observer of the request pipeline failed: ${(error as Error)?.stack ?? error}`);
  let waiting: RequestEnd[] = [];
  let held: Array<() => void> = [];
  let cuts: Array<(() => void) | undefined> = [];
  let scheduled: NodeJS.Immediate | undefined;
  const drain = (): void => {
    if (scheduled) clearImmediate(scheduled);
    scheduled = undefined;
    let kept = true;
    for (const observer of flushes)
      try {
        if (observer.flush?.() === false) kept = false;
      } catch (error) {
        failed(error);
      }
    const answers = held;
    const abandons = cuts;
    held = [];
    cuts = [];
    for (let index = 0; index < answers.length; index++)
      (kept ? answers[index] : (abandons[index] ?? answers[index]))?.();
    const batch = waiting;
    waiting = [];
    for (const event of batch)
      for (const observer of settles)
        try {
          observer.settled?.(event);
        } catch (error) {
          failed(error);
        }
  };
  return {
    start(request) {
      for (const observer of starts)
        try {
          observer.start?.(request);
        } catch (error) {
          failed(error);
        }
    },
    match(request, operationId) {
      for (const observer of matches)
        try {
          observer.match?.(request, operationId);
        } catch (error) {
          failed(error);
        }
    },
    end(event, release, abandon) {
      for (const observer of ends)
        try {
          observer.end?.(event);
        } catch (error) {
          failed(error);
        }
      if (release) {
        if (flushes.length === 0) release();
        else {
          held.push(release);
          cuts.push(abandon);
        }
      }
      if (settles.length > 0) waiting.push(event);
      if (flushes.length > 0 || waiting.length > 0) scheduled ??= setImmediate(drain);
    },
    holdsAnswers: flushes.length > 0,
    drain,
    async close() {
      drain();
      for (const observer of observers) await observer.close?.();
    },
  };
}
