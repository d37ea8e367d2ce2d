import {
  type FiredFault,
  FRONT_DOOR_DEFAULTS,
  isControlPath,
  type ObservedAnswer,
  type RequestEnd,
  type RequestPipeline,
} from '../../http/index.ts';
import type { OperationId, RouteResult } from '../../spec/index.ts';
import { errorFor, replyText, tooLargeReply } from './envelope.ts';
import type { MockReply, MockRequest } from './http-types.ts';
import { BODY_LIMIT_BYTES, CONTROL_BODY_LIMIT_BYTES } from './limits.ts';
import type { Maybe } from './store/maybe.ts';
import type { Found } from './store/state-store.ts';
import { StoreUnavailableError, unavailableReply } from './store/store-unavailable.ts';

const MAX_HEADER_LINES = FRONT_DOOR_DEFAULTS.maxHeaderLines;

/**
 * One request on its way through the core. Handlers fill in what they learn (the operation once
 * routed, the client once authenticated), so a layer sees it after `next()` returns.
 */
export interface Exchange {
  readonly request: MockRequest;
  readonly target: 'api' | 'control';
  operationId?: OperationId;
  /** The spec's route of the request, found once by whoever routes it first, carried to the end event. */
  route?: RouteResult;
  clientId?: string;
  /** A fault that shaped the answer. */
  fault?: FiredFault;
  /** The store's answers to the request's reads, when a layer asked for them before the operation. */
  found?: Found;
}

/**
 * The core's extension point, hono-middleware style: a layer runs around every request that
 * passed the limits, may look at the exchange before and after `next()`, and may replace the
 * answer (a fault), delay it, or record it (journal, coverage). The store's writes made by `next()`
 * are committed after every layer returned, before the answer leaves.
 */
export type AnswerLayer = (exchange: Exchange, next: () => Promise<MockReply>) => Promise<MockReply>;

export interface RequestCore {
  /** Answer one request; never throws, never rejects. */
  handle(request: MockRequest): Promise<MockReply>;
  /** Add a layer around every answer; the first added is the outermost. */
  use(layer: AnswerLayer): void;
}

export interface CoreParts {
  api(exchange: Exchange): Maybe<MockReply>;
  control(exchange: Exchange): Maybe<MockReply>;
  /** Refuses a control request that fails Host, Origin, content type or token, else undefined. */
  guardControl(request: MockRequest): MockReply | undefined;
  controlEnabled: boolean;
  /** Resolves once the store's writes so far are durable; undefined when nothing is waiting. */
  committed(): Promise<void> | undefined;
  /** Who watches the interface's requests (the recording, the journal, coverage, the options' own). */
  pipeline: RequestPipeline;
  log(line: string): void;
}

const JSON_TYPE = 'application/json; charset=utf-8';

/** A reply as the request pipeline's observers see it; its headers and size are worked out if asked. */
class MockAnswer implements ObservedAnswer {
  readonly whole = true;
  readonly repeated = false;
  readonly text: string;
  readonly durationMs: number;
  readonly error: ObservedAnswer['error'];
  readonly #reply: MockReply;

  constructor(reply: MockReply, text: string, durationMs: number) {
    this.#reply = reply;
    this.text = text;
    this.durationMs = durationMs;
    this.error =
      reply.transport?.kind === 'drop'
        ? { kind: 'dropped', message: 'the connection was reset with no answer (a pacu mock fault)' }
        : undefined;
  }

  get headers(): Record<string, string> {
    if (this.error) return {};
    return { 'content-type': JSON_TYPE, 'content-length': String(this.bytes), ...this.#reply.headers };
  }

  get bytes(): number {
    return this.error ? 0 : Buffer.byteLength(this.text);
  }
}

let turnEnd: Promise<void> | undefined;

/**
 * Resolves in this turn's check phase, one promise for every answer that waits on it: answers that
 * wrote nothing leave together at the end of the turn, as those after a group commit do, instead of
 * one at a time while the turn still reads requests (decision 195).
 */
function endOfTurn(): Promise<void> {
  turnEnd ??= new Promise<void>((resolve) =>
    setImmediate(() => {
      turnEnd = undefined;
      resolve();
    }),
  );
  return turnEnd;
}

/** The limits every request meets in-process, the same as the front door's over HTTP. */
export function limitReply(request: MockRequest): MockReply | undefined {
  if ((request.headerLines ?? 0) > MAX_HEADER_LINES) {
    return errorFor(request.path, 431, `more than ${MAX_HEADER_LINES} header lines`);
  }
  const limit = isControlPath(request.path) ? CONTROL_BODY_LIMIT_BYTES : BODY_LIMIT_BYTES;
  if (request.body.length > limit) return tooLargeReply(request.path, limit);
  return undefined;
}

/**
 * The one request core behind `app.request()` and HTTP: limits, control-API guards, the layers,
 * the operation or control handler, the 500 envelope for anything unexpected, and the commit of
 * the store's writes before the answer is handed back.
 */
export function createRequestCore(parts: CoreParts): RequestCore {
  const layers: AnswerLayer[] = [];
  const { pipeline } = parts;
  let seq = 0;
  const failed = (exchange: Exchange, error: unknown): MockReply => {
    const { method, path } = exchange.request;
    // The store cannot answer (a database down or restarting): the client may try again soon.
    if (error instanceof StoreUnavailableError) return unavailableReply(path, error);
    parts.log(
      `pacu mock: unexpected error on ${method} ${path}: ${(error as Error)?.stack ?? String(error)}`,
    );
    return errorFor(path, 500, 'internal error in pacu mock (logged)');
  };
  const dispatch = (exchange: Exchange): Maybe<MockReply> => {
    let reply: Maybe<MockReply>;
    try {
      reply = exchange.target === 'api' ? parts.api(exchange) : parts.control(exchange);
    } catch (error) {
      return failed(exchange, error);
    }
    return reply instanceof Promise ? reply.catch((error: unknown) => failed(exchange, error)) : reply;
  };
  const run = (exchange: Exchange, index: number): Promise<MockReply> => {
    const layer = layers[index];
    if (!layer) return Promise.resolve(dispatch(exchange));
    return layer(exchange, () => run(exchange, index + 1));
  };
  return {
    use(layer) {
      layers.push(layer);
    },
    async handle(request) {
      const limited = limitReply(request);
      if (limited) return limited;
      const control = isControlPath(request.path);
      if (control && !parts.controlEnabled) return errorFor('/v3', 404, `no operation at ${request.path}`);
      const refused = control ? parts.guardControl(request) : undefined;
      if (refused) return refused;
      const exchange: Exchange = { request, target: control ? 'control' : 'api' };
      const startedAt = Date.now();
      const started = performance.now();
      const number = control ? 0 : ++seq;
      if (!control) pipeline.start(request);
      let reply: MockReply;
      try {
        reply = await run(exchange, 0);
      } catch (error) {
        if (error instanceof StoreUnavailableError) reply = unavailableReply(request.path, error);
        else {
          parts.log(`pacu mock: a layer failed on ${request.method} ${request.path}: ${String(error)}`);
          reply = errorFor(request.path, 500, 'internal error in pacu mock (logged)');
        }
      }
      // Nothing the answer acknowledges may be lost: it leaves only once the journal has it (with
      // nothing to commit, at the end of the turn all the same).
      try {
        await (parts.committed() ?? endOfTurn());
      } catch (error) {
        parts.log(`pacu mock: cannot write the state journal: ${(error as Error).message}`);
        reply = errorFor(
          request.path,
          503,
          'the mock cannot write its state journal (logged); nothing was kept',
        );
      }
      if (control) return reply;
      // The text goes on the wire as it is: rendered once, for the observers and the transport.
      if (!reply.transport && reply.text === undefined) reply.text = JSON.stringify(reply.body);
      const { operationId, route, clientId, fault } = exchange;
      if (operationId) pipeline.match(request, operationId);
      const event: RequestEnd = {
        seq: number,
        startedAt,
        request,
        operationId,
        ...(route ? { route } : {}),
        clientId,
        status: reply.transport?.kind === 'drop' ? 0 : reply.status,
        fault,
        answer: new MockAnswer(reply, replyText(reply), performance.now() - started),
      };
      // With a recording, the answer leaves once the recording has the exchange.
      if (pipeline.holdsAnswers) await new Promise<void>((release) => pipeline.end(event, release));
      else pipeline.end(event);
      return reply;
    },
  };
}
