import { readFile } from 'node:fs/promises';
import type { OperationSpec, Spec } from '../spec/index.ts';
import { ConfigError, jsonProblem, routeRequest } from '../spec/index.ts';

// HAR 1.2 (http://www.softwareishard.com/blog/har-12-spec/): the recording format of `pacu proxy`,
// read by `pacu mock --from-recording`, `pacu replay` and the pact writer. One home for its shape.

export interface HarNameValue {
  readonly name: string;
  readonly value: string;
}

export interface HarRequest {
  readonly method: string;
  readonly url: string;
  readonly httpVersion: string;
  readonly cookies: readonly HarNameValue[];
  readonly headers: readonly HarNameValue[];
  readonly queryString: readonly HarNameValue[];
  /** `encoding: 'base64'` (pacu's, as HAR 1.2 has it for `content`): the body's bytes are not UTF-8. */
  readonly postData?: { readonly mimeType: string; readonly text: string; readonly encoding?: 'base64' };
  readonly headersSize: number;
  readonly bodySize: number;
}

export interface HarResponse {
  readonly status: number;
  readonly statusText: string;
  readonly httpVersion: string;
  readonly cookies: readonly HarNameValue[];
  readonly headers: readonly HarNameValue[];
  readonly content: {
    readonly size: number;
    readonly mimeType: string;
    readonly text?: string;
    /** `base64`: the body's bytes are not UTF-8, and `text` is their base64. */
    readonly encoding?: 'base64';
  };
  readonly redirectURL: string;
  readonly headersSize: number;
  readonly bodySize: number;
}

export interface HarEntry {
  readonly startedDateTime: string;
  readonly time: number;
  readonly request: HarRequest;
  readonly response: HarResponse;
  readonly cache: Record<string, never>;
  readonly timings: { readonly send: number; readonly wait: number; readonly receive: number };
  /** pacu's own field (HAR allows custom fields that start with `_`): the operation the path routes to. */
  readonly _operation?: string;
  /**
   * Why no whole answer was recorded, as browsers write it (Chrome's `_error`): the answer broke
   * off (status as sent, the body as far as it came), or none came (the proxy's own 502 or 504).
   */
  readonly _error?: string;
}

export interface Har {
  readonly log: {
    readonly version: '1.2';
    readonly creator: { readonly name: string; readonly version: string };
    readonly entries: readonly HarEntry[];
  };
}

/** One exchange as the proxy saw it, with headers as sent on the wire (already redacted). */
export interface HarExchange {
  readonly startedAt: Date;
  readonly durationMs: number;
  readonly method: string;
  readonly url: string;
  readonly requestHeaders: readonly HarNameValue[];
  readonly requestBody?: string;
  /** `base64` when `requestBody` is the base64 of bytes that are not UTF-8. */
  readonly requestEncoding?: 'base64';
  readonly status: number;
  readonly statusText: string;
  readonly responseHeaders: readonly HarNameValue[];
  readonly responseBody: string;
  /** `base64` when `responseBody` is the base64 of bytes that are not UTF-8. */
  readonly responseEncoding?: 'base64';
  readonly operation?: string;
  /** Why the answer is not a whole one from the provider (HAR `_error`). */
  readonly error?: string;
}

const header = (headers: readonly HarNameValue[], name: string): string =>
  headers.find((h) => h.name.toLowerCase() === name)?.value ?? '';

/** A HAR 1.2 entry for one exchange. */
export function harEntry(exchange: HarExchange): HarEntry {
  const url = new URL(exchange.url);
  const requestType = header(exchange.requestHeaders, 'content-type');
  const responseType = header(exchange.responseHeaders, 'content-type');
  const responseBytes = bodyBytes(exchange.responseBody, exchange.responseEncoding);
  const requestBytes =
    exchange.requestBody === undefined ? 0 : bodyBytes(exchange.requestBody, exchange.requestEncoding);
  return {
    startedDateTime: exchange.startedAt.toISOString(),
    time: exchange.durationMs,
    request: {
      method: exchange.method,
      url: exchange.url,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: exchange.requestHeaders,
      queryString: [...url.searchParams].map(([name, value]) => ({ name, value })),
      ...(exchange.requestBody !== undefined
        ? {
            postData: {
              mimeType: requestType,
              text: exchange.requestBody,
              ...(exchange.requestEncoding ? { encoding: exchange.requestEncoding } : {}),
            },
          }
        : {}),
      headersSize: -1,
      bodySize: requestBytes,
    },
    response: {
      status: exchange.status,
      statusText: exchange.statusText,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: exchange.responseHeaders,
      content: {
        size: responseBytes,
        mimeType: responseType,
        text: exchange.responseBody,
        ...(exchange.responseEncoding ? { encoding: exchange.responseEncoding } : {}),
      },
      redirectURL: '',
      headersSize: -1,
      bodySize: responseBytes,
    },
    cache: {},
    timings: { send: 0, wait: exchange.durationMs, receive: 0 },
    ...(exchange.operation ? { _operation: exchange.operation } : {}),
    ...(exchange.error ? { _error: exchange.error } : {}),
  };
}

/** How many bytes a body recorded as `text` has: its UTF-8, or what its base64 stands for. */
export const bodyBytes = (text: string, encoding?: 'base64'): number =>
  encoding === 'base64' ? Buffer.from(text, 'base64').length : Buffer.byteLength(text);

/** The bytes of a recorded body (`postData`, `content`): its text, or the bytes its base64 stands for. */
export const recordedBytes = (
  body: { readonly text?: string; readonly encoding?: string } | undefined,
): Buffer => Buffer.from(body?.text ?? '', body?.encoding === 'base64' ? 'base64' : 'utf8');

/**
 * A response body as a HAR entry holds it: its JSON string, as UTF-8 bytes when it is kept to be
 * written again (a repeated answer is not encoded again), and the body's own size in bytes.
 */
export interface HarBodyText {
  /** `JSON.stringify(body)`, or its UTF-8 bytes. */
  readonly json: string | Buffer;
  /** The body's own size in bytes. */
  readonly bytes: number;
  /** `base64` when the JSON string is the base64 of bytes that are not UTF-8. */
  readonly encoding?: 'base64';
}

/** A body's {@link HarBodyText} to write once. */
export const harBodyText = (body: string, encoding?: 'base64'): HarBodyText => ({
  json: JSON.stringify(body),
  bytes: bodyBytes(body, encoding),
  ...(encoding ? { encoding } : {}),
});

/** A body's {@link HarBodyText} to keep and write again: its JSON string encoded once. */
export const keptHarBodyText = (body: string): HarBodyText => ({
  json: Buffer.from(JSON.stringify(body), 'utf8'),
  bytes: Buffer.byteLength(body),
});

/**
 * A HAR entry's JSON text in three pieces: the text before the answer body's JSON string, that
 * string (or its UTF-8 bytes), and the text after it. A recorder writes the pieces as they are: an
 * answer body seen before is kept as bytes and not encoded again for every entry that holds it.
 */
export interface HarEntryText {
  readonly before: string;
  readonly body: string | Buffer;
  readonly after: string;
}

const json = JSON.stringify;
/** Text JSON writes as it is between quotes: no quote, backslash, control character or surrogate. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what JSON escapes.
const PLAIN_TEXT = /^[^"\\\u0000-\u001f\ud800-\udfff]*$/;
/** `JSON.stringify(text)`, without a call into it for the short plain strings an entry is mostly made of. */
const jsonText = (text: string): string => (PLAIN_TEXT.test(text) ? `"${text}"` : json(text));
/**
 * `JSON.stringify(value)` of a number. A time in hundredths of a millisecond (what a recording
 * writes) is written from its integer digits: the shortest form of a double is dear to find.
 */
function jsonNumber(value: number): string {
  const hundredths = Math.round(value * 100);
  if (value >= 0 && hundredths < 1e15 && hundredths / 100 === value) {
    const whole = Math.floor(hundredths / 100);
    const cents = hundredths - whole * 100;
    if (cents === 0) return `${whole}`;
    return cents % 10 === 0 ? `${whole}.${cents / 10}` : `${whole}.${cents < 10 ? '0' : ''}${cents}`;
  }
  return Number.isFinite(value) ? `${value}` : 'null';
}

/** The second `isoTime` wrote last, and its ISO text up to the decimal point. */
let isoSecond = Number.NaN;
let isoSecondText = '';

/**
 * `toISOString()` of a date or of ms since the epoch. A busy proxy stamps many exchanges a second,
 * twice each (the exchange and its HAR entry): a millisecond of the second written last only puts
 * its digits after that second's text.
 */
export function isoTime(at: Date | number): string {
  const ms = typeof at === 'number' ? at : at.getTime();
  // A fraction, or a time no Date holds: as toISOString() writes it (or throws).
  if (!Number.isInteger(ms) || Math.abs(ms) > 8.64e15) return new Date(ms).toISOString();
  const second = Math.floor(ms / 1000);
  if (second !== isoSecond) {
    isoSecondText = new Date(second * 1000).toISOString().slice(0, -4);
    isoSecond = second;
  }
  const milli = ms - second * 1000;
  return `${isoSecondText}${milli < 10 ? '00' : milli < 100 ? '0' : ''}${milli}Z`;
}

/** A HAR header list as JSON text: the same as `JSON.stringify(list)`, but see {@link harEntryText}. */
export type HarHeadersJson = (list: readonly HarNameValue[]) => string;

/**
 * `JSON.stringify(harEntry(exchange))` written without building the entry (the proxy records every
 * exchange). `body`, when given, must be {@link harBodyText} (or {@link keptHarBodyText}) of `exchange.responseBody`;
 * `headersJson` may remember header lists it has seen. `exchange.url` is absolute.
 */
export function harEntryText(
  exchange: HarExchange,
  body: HarBodyText = harBodyText(exchange.responseBody, exchange.responseEncoding),
  headersJson: HarHeadersJson = json,
): HarEntryText {
  const queryString = exchange.url.includes('?')
    ? json([...new URL(exchange.url).searchParams].map(([name, value]) => ({ name, value })))
    : '[]';
  const postData =
    exchange.requestBody === undefined
      ? ''
      : `"postData":{"mimeType":${json(header(exchange.requestHeaders, 'content-type'))},"text":${json(exchange.requestBody)}${exchange.requestEncoding ? `,"encoding":"${exchange.requestEncoding}"` : ''}},`;
  const requestBytes =
    exchange.requestBody === undefined ? 0 : bodyBytes(exchange.requestBody, exchange.requestEncoding);
  const time = jsonNumber(exchange.durationMs);
  return {
    before:
      `{"startedDateTime":"${isoTime(exchange.startedAt)}","time":${time},` +
      `"request":{"method":${jsonText(exchange.method)},"url":${jsonText(exchange.url)},"httpVersion":"HTTP/1.1","cookies":[],` +
      `"headers":${headersJson(exchange.requestHeaders)},"queryString":${queryString},${postData}"headersSize":-1,"bodySize":${requestBytes}},` +
      `"response":{"status":${jsonNumber(exchange.status)},"statusText":${jsonText(exchange.statusText)},"httpVersion":"HTTP/1.1","cookies":[],` +
      `"headers":${headersJson(exchange.responseHeaders)},"content":{"size":${body.bytes},"mimeType":${jsonText(header(exchange.responseHeaders, 'content-type'))},"text":`,
    body: body.json,
    after:
      `${body.encoding ? `,"encoding":"${body.encoding}"` : ''}},"redirectURL":"","headersSize":-1,"bodySize":${body.bytes}},"cache":{},` +
      `"timings":{"send":0,"wait":${time},"receive":0}` +
      `${exchange.operation ? `,"_operation":${jsonText(exchange.operation)}` : ''}` +
      `${exchange.error ? `,"_error":${json(exchange.error)}` : ''}}`,
  };
}

/** A {@link HarEntryText} as one string. */
export const joinHarEntryText = (entry: HarEntryText): string =>
  `${entry.before}${typeof entry.body === 'string' ? entry.body : entry.body.toString('utf8')}${entry.after}`;

/** An empty HAR log written by `creator` (pacu and its version). */
export function emptyHar(creator: { name: string; version: string }): Har {
  return { log: { version: '1.2', creator, entries: [] } };
}

/** Why `value` is not a HAR 1.2 log pacu can read, or undefined. */
function harProblem(value: unknown): string | undefined {
  const log = (value as { log?: { entries?: unknown } } | null)?.log;
  if (!log || !Array.isArray(log.entries)) return 'no log.entries';
  for (const [index, entry] of (log.entries as unknown[]).entries()) {
    const { request, response } = (entry ?? {}) as { request?: HarRequest; response?: HarResponse };
    if (typeof request?.method !== 'string' || typeof request.url !== 'string' || !URL.canParse(request.url))
      return `entry ${index + 1} has no request method and absolute url`;
    if (typeof response?.status !== 'number') return `entry ${index + 1} has no response status`;
  }
  return undefined;
}

/** `value` as a HAR, or a usage error naming `source` (one line, exit 2). */
export function asHar(value: unknown, source: string): Har {
  const problem = harProblem(value);
  if (problem) throw new ConfigError(`pacu: ${source} is not a HAR recording (${problem})`);
  return value as Har;
}

/** Read a HAR file; a file that is not a HAR 1.2 log is a usage error (one line, exit 2). */
export async function readHar(file: string): Promise<Har> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new ConfigError(`pacu: cannot read recording ${file}: ${reason}`, { cause: error });
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(`pacu: ${file} is not a HAR recording: ${jsonProblem(text, error)}`, {
      cause: error,
    });
  }
  return asHar(parsed, file);
}

/** One recorded exchange placed among the spec's operations, bodies parsed. */
export interface RoutedExchange {
  /** Position in `log.entries`, from 0. */
  readonly index: number;
  readonly entry: HarEntry;
  /** Undefined when the path is none of the spec's operations. */
  readonly operation: OperationSpec | undefined;
  readonly params: Readonly<Record<string, string>>;
  /** Path and query relative to the base URL, as the description writes paths (`/users?page=2`). */
  readonly path: string;
  /** The request body as JSON (undefined when there is none or it is not JSON; see `entry` for text). */
  readonly requestJson: unknown;
  /** The response body as JSON, or undefined. */
  readonly responseJson: unknown;
  /** The entry's `_error`: no whole answer from the provider was recorded (readers skip it). */
  readonly error: string | undefined;
}

function parseJson(text: string | undefined): unknown {
  if (text === undefined || text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * The path of a recorded URL relative to the base URL: everything after the first `basePath`
 * segment, so a sandbox under any prefix (`https://host/sandbox/v3/users`) reads as `/users`.
 */
export function relativePath(url: string, basePath: string): string {
  const parsed = new URL(url);
  const at = `${parsed.pathname}/`.indexOf(`${basePath}/`);
  const path = at < 0 ? parsed.pathname : parsed.pathname.slice(at + basePath.length) || '/';
  return `${path}${parsed.search}`;
}

/** Every entry of a recording, routed to its operation, in recorded order. */
export function routeHar(spec: Spec, har: Har): RoutedExchange[] {
  return har.log.entries.map((entry, index) => {
    const path = relativePath(entry.request.url, spec.basePath);
    const route = routeRequest(spec, entry.request.method, path);
    return {
      index,
      entry,
      operation: route.kind === 'operation' ? route.operation : undefined,
      params: route.kind === 'operation' ? route.params : {},
      path,
      requestJson: parseJson(entry.request.postData?.text),
      responseJson: parseJson(entry.response.content.text),
      error: entry._error,
    };
  });
}
