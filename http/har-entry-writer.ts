import { isUtf8 } from 'node:buffer';
import { STATUS_CODES } from 'node:http';
import { LRUCache } from 'lru-cache';
import {
  type HarBodyText,
  type HarEntryText,
  type HarExchange,
  type HarNameValue,
  harBodyText,
  harEntryText,
  keptHarBodyText,
} from './har.ts';
import { endToEndLines } from './hop-by-hop.ts';
import { bodyText, type RequestEnd } from './pipeline.ts';
import type { Redactor } from './redaction.ts';

/** Distinct header name and value pairs remembered; all are forgotten when there are more. */
const REMEMBERED_HEADERS = 4096;
/** Distinct URLs whose redacted text is remembered; all are forgotten when there are more. */
const REMEMBERED_URLS = 1024;
/** Distinct answer bodies whose redacted JSON text is remembered, and the longest one. */
const REMEMBERED_BODIES = 256;
const REMEMBERED_BODY_LENGTH = 64 * 1024;

/** A header name's remembered pairs as JSON, by value, and the value it had last. */
interface NamedPairs {
  lastValue: string | undefined;
  lastJson: string;
  readonly byValue: Map<string, string>;
}

const contentType = (headers: readonly HarNameValue[]): string | undefined =>
  headers.find((pair) => pair.name.toLowerCase() === 'content-type')?.value;

/** Only reads repeat their answers (a write's is a new record each time); and only short ones are kept. */
const remembers = (method: string, length: number): boolean =>
  method === 'GET' && length <= REMEMBERED_BODY_LENGTH;

const pairs = (headers: Readonly<Record<string, string | readonly string[]>>): HarNameValue[] => {
  const out: HarNameValue[] = [];
  for (const name in headers) {
    const value = headers[name] as string | readonly string[];
    if (typeof value === 'string') out.push({ name, value });
    else for (const item of value) out.push({ name, value: item });
  }
  return out;
};

/** The request's end-to-end header lines as they went on (names as spelled, each duplicate in its place). */
function requestPairs(event: RequestEnd): HarNameValue[] {
  const raw = event.request.rawHeaders;
  if (!raw) return pairs(event.request.headers as Record<string, string>);
  const lines = endToEndLines(raw);
  const out: HarNameValue[] = [];
  for (let index = 0; index + 1 < lines.length; index += 2)
    out.push({ name: lines[index] as string, value: lines[index + 1] as string });
  return out;
}

/** An exchange as a recording holds it before redaction, with its bodies' bytes (the writer redacts those). */
export interface RecordedExchange extends HarExchange {
  /** The request body's bytes (a recording writes them in place of `requestBody`). */
  readonly requestPayload?: Buffer | undefined;
  /** The answer's bytes, when they are not UTF-8. */
  readonly responsePayload?: Buffer | undefined;
}

/** An exchange as a recording holds it, unredacted; `origin` is what the path was sent under. */
export function harExchangeOf(event: RequestEnd, origin: string): RecordedExchange {
  const { request, answer } = event;
  const search = request.search ?? (request.query.size > 0 ? `?${request.query}` : '');
  const kept = answer.whole || answer.error;
  const utf8 = request.body.length > 0 && isUtf8(request.body);
  return {
    startedAt: new Date(event.startedAt),
    durationMs: Math.round(answer.durationMs * 100) / 100,
    method: request.method,
    url: `${origin}${request.path}${search}`,
    requestHeaders: requestPairs(event),
    // A UTF-8 body as the text its other readers decoded already; any other as its bytes (base64).
    requestBody: utf8 ? bodyText(request) : undefined,
    requestPayload: request.body.length > 0 && !utf8 ? request.body : undefined,
    status: event.status,
    statusText: STATUS_CODES[event.status] ?? '',
    responseHeaders: pairs(answer.headers),
    // An answer that broke off is kept as far as it came; its `_error` says so.
    responseBody: kept ? answer.text : `(${answer.bytes} bytes, not kept)`,
    responsePayload: kept ? answer.binary : undefined,
    operation: event.operationId,
    error: answer.error?.message,
  };
}

/**
 * An exchange's HAR entry as JSON text (in {@link HarEntryText}'s pieces), every string through the
 * redactor (the one place secrets leave), as `harEntry(redactor.redact(exchange))` would be. An
 * answer body's redacted text is remembered while the redactor learns no new secret: a provider
 * answers the same read with the same bytes (decision 101).
 */
export function createHarWriter(redactor: Redactor): (har: RecordedExchange) => HarEntryText {
  const bodies = new LRUCache<string, HarBodyText>({ max: REMEMBERED_BODIES });
  let known = redactor.known;
  // Headers repeat (the same token, agent and content type on every request): each name and value
  // pair is redacted and written as JSON once while the redactor learns nothing new. The value a
  // name had last is compared first: a long value (a token) is not hashed again on every request.
  const pairsJson = new Map<string, NamedPairs>();
  let pairsKept = 0;
  // So do URLs: a client reads the same few paths over and over.
  const urls = new Map<string, string>();
  const forgetIfLearned = (): void => {
    if (redactor.known === known) return;
    bodies.clear();
    pairsJson.clear();
    pairsKept = 0;
    urls.clear();
    known = redactor.known;
  };
  const pairJson = ({ name, value }: HarNameValue): string => {
    let named = pairsJson.get(name);
    if (!named) {
      named = { lastValue: undefined, lastJson: '', byValue: new Map() };
      pairsJson.set(name, named);
    }
    if (value === named.lastValue) return named.lastJson;
    let out = named.byValue.get(value);
    if (out === undefined) {
      if (pairsKept >= REMEMBERED_HEADERS) {
        pairsJson.clear();
        pairsJson.set(name, named);
        named.byValue.clear();
        pairsKept = 0;
      }
      const [redacted] = redactor.redactHeaders([{ name, value }]);
      out = JSON.stringify(redacted);
      named.byValue.set(value, out);
      pairsKept += 1;
    }
    named.lastValue = value;
    named.lastJson = out;
    return out;
  };
  const headersJson = (list: readonly HarNameValue[]): string => {
    let out = '[';
    for (let index = 0; index < list.length; index++)
      out +=
        index === 0 ? pairJson(list[index] as HarNameValue) : `,${pairJson(list[index] as HarNameValue)}`;
    return `${out}]`;
  };
  const body = (raw: string, har: RecordedExchange): HarBodyText => {
    if (har.responsePayload) {
      const { text: redacted, encoding } = redactor.redactBody(
        har.responsePayload,
        contentType(har.responseHeaders),
      );
      return harBodyText(redacted, encoding);
    }
    if (har.error || !remembers(har.method, raw.length)) return harBodyText(redactor.redactText(raw));
    let kept = bodies.get(raw);
    if (!kept) {
      kept = keptHarBodyText(redactor.redactText(raw));
      bodies.set(raw, kept);
    }
    return kept;
  };
  const text = (value: string): string => redactor.redactText(value);
  const urlText = (url: string): string => {
    let out = urls.get(url);
    if (out === undefined) {
      if (urls.size >= REMEMBERED_URLS) urls.clear();
      out = text(url);
      urls.set(url, out);
    }
    return out;
  };
  return (har) => {
    forgetIfLearned();
    let requestBody: string | undefined;
    let requestEncoding: 'base64' | undefined;
    if (har.requestPayload) {
      const redacted = redactor.redactBody(har.requestPayload, contentType(har.requestHeaders));
      requestBody = redacted.text;
      requestEncoding = redacted.encoding;
    } else if (har.requestBody !== undefined)
      requestBody = redactor.redactText(har.requestBody, contentType(har.requestHeaders));
    return harEntryText(
      {
        startedAt: har.startedAt,
        durationMs: har.durationMs,
        method: har.method,
        url: urlText(har.url),
        requestHeaders: har.requestHeaders,
        requestBody,
        requestEncoding,
        status: har.status,
        statusText: har.statusText,
        responseHeaders: har.responseHeaders,
        responseBody: '',
        operation: har.operation,
        error: har.error === undefined ? undefined : text(har.error),
      },
      body(har.responseBody, har),
      headersJson,
    );
  };
}
