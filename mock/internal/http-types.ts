import type { RefusalKind } from './behaviour.ts';

/** A request as the mock's core sees it, whether it came over a socket or as a fetch `Request`. */
export interface MockRequest {
  method: string;
  /** Path without the query string, e.g. `/v3/users`. */
  path: string;
  query: URLSearchParams;
  /** Lower-case names. */
  headers: Record<string, string | undefined>;
  body: Buffer;
  /** How many header lines the client sent (before any were merged). */
  headerLines?: number;
  /** Names as the client spelled them and values, alternating (over HTTP). */
  rawHeaders?: readonly string[];
  /** The query as sent, with its `?` (over HTTP). */
  search?: string;
  /** `body` decoded as UTF-8, once: see {@link bodyText}. */
  decoded?: string;
}

/** What the core answers: a status and a JSON value (always JSON, envelope or control data). */
export interface MockReply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
  /** `body` already rendered as JSON text (a list built from cached records), else undefined. */
  text?: string;
  /**
   * Set by a fault: `drop` closes the connection with no answer (a reset); `raw` sends this text
   * as the body instead of `body` as JSON (empty or truncated answers).
   */
  transport?: { kind: 'drop' } | { kind: 'raw'; body: string };
  /** Why the mock refused the request, when it did. */
  refusal?: RefusalKind;
}

/** Thrown anywhere in a handler; turned into the error envelope in one place (the app). */
export class MockHttpError extends Error {
  readonly status: number;
  readonly headers: Record<string, string> | undefined;
  /** Why: the unit a recording's refusals are learned in. */
  readonly kind: RefusalKind;

  constructor(
    status: number,
    message: string,
    headers?: Record<string, string>,
    kind: RefusalKind = 'invalid-request',
  ) {
    super(message);
    this.name = 'MockHttpError';
    this.status = status;
    this.headers = headers;
    this.kind = kind;
  }
}
