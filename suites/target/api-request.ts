/** One HTTP exchange with a target, as plain data: what rules record as evidence and replay. */
export interface ApiRequest {
  readonly method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';
  /** Path under the target's base URL, with the query string, e.g. `/users?page=2`. */
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  /** The body exactly as sent; undefined sends none. */
  readonly body?: string;
}

export interface ApiResponse {
  readonly status: number;
  /** Header names in lower case; repeated headers joined with `, `. */
  readonly headers: Readonly<Record<string, string>>;
  /** The body as text. */
  readonly text: string;
  /** The body parsed as JSON, or undefined when it is not JSON text. */
  readonly json: unknown;
  readonly durationMs: number;
}

/** `JSON.parse(text)`, or undefined when `text` is not JSON. */
export function jsonOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

let lastRequest: ApiRequest | undefined;
let lastBody: unknown;

/**
 * A request's body parsed as JSON, or undefined when it is not JSON text. The last request's
 * parse is remembered: the judge and the exchange state read the same body one after the other
 * (a proxy judges every write it forwards). Read-only: the value is shared.
 */
export function requestJson(request: ApiRequest): unknown {
  if (request !== lastRequest) {
    lastRequest = request;
    lastBody = jsonOrUndefined(request.body ?? '');
  }
  return lastBody;
}

/** The JSON body of a request, with the content type that says so. */
export function jsonRequest(
  method: ApiRequest['method'],
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
): ApiRequest {
  return {
    method,
    path,
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  };
}

/** `Authorization: Bearer <token>`, or nothing when there is no token. */
export function bearer(token: string | undefined): Record<string, string> {
  return token === undefined ? {} : { authorization: `Bearer ${token}` };
}

/** `Authorization: Basic base64(id:secret)`, as RFC 7617 spells it. */
export function basic(clientId: string, clientSecret: string): Record<string, string> {
  return { authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`, 'utf8').toString('base64')}` };
}
