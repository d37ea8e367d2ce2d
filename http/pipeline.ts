import type { FiredFault } from './control-protocol.ts';

// The events of a request pipeline, msw-style (handleRequest's request:start / match / end): the
// mock and the proxy emit them, and whatever only watches (journal, coverage, a live judge)
// subscribes. What changes the answer (a fault) is a layer of the mock, never an observer.

/** A request as a pipeline saw it arrive; `path` is the whole path (`/v3/users`), without the query. */
export interface ObservedRequest {
  readonly method: string;
  readonly path: string;
  readonly query: URLSearchParams;
  /** Lower-case names. */
  readonly headers: Readonly<Record<string, string | undefined>>;
  readonly body: Buffer;
  /** `body` decoded as UTF-8, filled in by the first reader that needs it. */
  decoded?: string;
}

/** How a request ended: its operation (when it routes to one), its client (when known) and status. */
export interface RequestEnd {
  readonly request: ObservedRequest;
  readonly operationId: string | undefined;
  readonly clientId: string | undefined;
  /** 0 when the connection was dropped without an answer. */
  readonly status: number;
  /** A mock fault that shaped the answer; never set by the proxy. */
  readonly fault: FiredFault | undefined;
}

/** Watches every request on the interface; each method is optional and must not throw. */
export interface RequestObserver {
  /** The request arrived (after the transport's limits). */
  start?(request: ObservedRequest): void;
  /** The request routes to this operation. */
  match?(request: ObservedRequest, operationId: string): void;
  /** The answer is on its way (or the connection was dropped). */
  end?(event: RequestEnd): void;
}
