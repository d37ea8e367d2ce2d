import { FRONT_DOOR_DEFAULTS, isControlPath } from '../../http/index.ts';
import type { OperationId } from '../../spec/index.ts';
import { errorFor, tooLargeReply } from './envelope.ts';
import type { MockReply, MockRequest } from './http-types.ts';
import { BODY_LIMIT_BYTES, CONTROL_BODY_LIMIT_BYTES } from './limits.ts';

const MAX_HEADER_LINES = FRONT_DOOR_DEFAULTS.maxHeaderLines;

/**
 * One request on its way through the core. Handlers fill in what they learn (the operation once
 * routed, the client once authenticated), so a layer sees it after `next()` returns.
 */
export interface Exchange {
  readonly request: MockRequest;
  readonly target: 'api' | 'control';
  operationId?: OperationId;
  clientId?: string;
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
  api(exchange: Exchange): MockReply;
  control(exchange: Exchange): MockReply;
  /** Refuses a control request that fails Host, Origin, content type or token, else undefined. */
  guardControl(request: MockRequest): MockReply | undefined;
  controlEnabled: boolean;
  /** Resolves once the store's writes so far are durable; undefined when nothing is waiting. */
  committed(): Promise<void> | undefined;
  log(line: string): void;
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
  const dispatch = (exchange: Exchange): MockReply => {
    try {
      return exchange.target === 'api' ? parts.api(exchange) : parts.control(exchange);
    } catch (error) {
      const { method, path } = exchange.request;
      parts.log(
        `pacu mock: unexpected error on ${method} ${path}: ${(error as Error)?.stack ?? String(error)}`,
      );
      return errorFor(path, 500, 'internal error in pacu mock (logged)');
    }
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
      let reply: MockReply;
      try {
        reply = await run({ request, target: control ? 'control' : 'api' }, 0);
      } catch (error) {
        parts.log(`pacu mock: a layer failed on ${request.method} ${request.path}: ${String(error)}`);
        reply = errorFor(request.path, 500, 'internal error in pacu mock (logged)');
      }
      // Nothing the answer acknowledges may be lost: it leaves only once the journal has it.
      try {
        const pending = parts.committed();
        if (pending) await pending;
      } catch (error) {
        parts.log(`pacu mock: cannot write the state journal: ${(error as Error).message}`);
        return errorFor(
          request.path,
          503,
          'the mock cannot write its state journal (logged); nothing was kept',
        );
      }
      return reply;
    },
  };
}
