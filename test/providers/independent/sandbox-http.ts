import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

/** body-parser's default limit: what most Node banking back ends run with unchanged. */
export const BODY_LIMIT_BYTES = 100 * 1024;

export type Body = { readonly kind: 'ok'; readonly text: string } | { readonly kind: 'too-large' };

/** The whole request body as UTF-8, or `too-large` once it passes the limit (the rest is drained). */
export async function readBody(req: IncomingMessage): Promise<Body> {
  const chunks: Buffer[] = [];
  let size = 0;
  let tooLarge = false;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > BODY_LIMIT_BYTES) tooLarge = true;
    if (!tooLarge) chunks.push(chunk);
  }
  return tooLarge ? { kind: 'too-large' } : { kind: 'ok', text: Buffer.concat(chunks).toString('utf8') };
}

/** How answers are written; the two mutants of the envelope change it here and nowhere else. */
export interface Responder {
  ok(
    res: ServerResponse,
    message: string,
    data: unknown,
    options?: { status?: number; token?: boolean },
  ): void;
  fail(res: ServerResponse, status: number, message: string, headers?: Record<string, string>): void;
}

export interface ResponderMutations {
  /** Success answers (but the token's) without `message`. */
  readonly dropSuccessMessage: boolean;
  /** Every answer but the token's labelled text/plain. */
  readonly textPlain: boolean;
  /** Error answers with a `code` beside `message` and `success`. */
  readonly errorCode: boolean;
}

const ERROR_CODES: Record<number, string> = {
  400: 'INVALID_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  409: 'DUPLICATE_REFERENCE',
  413: 'PAYLOAD_TOO_LARGE',
  422: 'UNPROCESSABLE_ENTITY',
  500: 'INTERNAL_ERROR',
};

export function createResponder(mutations: ResponderMutations): Responder {
  const write = (
    res: ServerResponse,
    status: number,
    body: unknown,
    token: boolean,
    headers: Record<string, string> = {},
  ): void => {
    const text = JSON.stringify(body);
    const json = !mutations.textPlain || token;
    res.writeHead(status, {
      ...headers,
      'content-type': json ? 'application/json; charset=utf-8' : 'text/plain; charset=utf-8',
      'content-length': String(Buffer.byteLength(text)),
      'cache-control': 'no-store',
      'x-request-id': randomUUID(),
    });
    res.end(text);
  };
  return {
    ok(res, message, data, options = {}) {
      const token = options.token === true;
      const body =
        mutations.dropSuccessMessage && !token ? { success: true, data } : { success: true, message, data };
      write(res, options.status ?? 200, body, token);
    },
    fail(res, status, message, headers) {
      const body = mutations.errorCode
        ? { success: false, message, code: ERROR_CODES[status] ?? 'ERROR' }
        : { success: false, message };
      write(res, status, body, false, headers);
    },
  };
}

/** ISO 8601 in UTC as Python's `datetime.isoformat()` writes it: microseconds and `+00:00`. */
export function timestamp(date: Date = new Date()): string {
  return date.toISOString().replace('Z', '000+00:00');
}
