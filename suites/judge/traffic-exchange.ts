import { bodyText, endToEnd, isoTime, type RequestEnd } from '../../http/index.ts';
import type { ApiRequest } from '../target/api-request.ts';
import type { ObservedExchange } from './exchange-judge.ts';
import { answerOf } from './lazy-answer.ts';

/** Request headers that are the hop's, not the message's: a curl line sends its own. */
const HOP_REQUEST_HEADERS = ['host', 'content-length', 'expect'];

type Headers = Readonly<Record<string, string | readonly string[] | undefined>>;

/**
 * Header values joined as `ApiRequest` and `ApiResponse` keep them (repeated ones with `, `). Most
 * headers are single: `headers` itself is handed back then (it is read, never written).
 */
function flatten(headers: Headers): Record<string, string> {
  let out: Record<string, string> | undefined;
  for (const name in headers) {
    const value = headers[name];
    if (typeof value === 'string') continue;
    out ??= { ...(headers as Record<string, string>) };
    if (value === undefined) delete out[name];
    else out[name] = value.join(', ');
  }
  return out ?? (headers as Record<string, string>);
}

// The exchange of the last event asked for: the observers of a pipeline (judge, state, ring) read
// each event one after the other, and a map keyed by every event cost more than the exchange.
let lastEvent: RequestEnd | undefined;
let lastBasePath = '';
let lastExchange: ObservedExchange | undefined;

/**
 * A request's end as the judges read an exchange: the path relative to `basePath` with its query
 * (as `pacu check`'s requests are), the end-to-end request headers, the answer with its JSON
 * parsed on first read.
 */
export function exchangeOf(event: RequestEnd, basePath: string): ObservedExchange {
  if (event === lastEvent && basePath === lastBasePath && lastExchange) return lastExchange;
  const { request, answer } = event;
  const search = request.search ?? (request.query.size > 0 ? `?${request.query}` : '');
  const path = request.path.startsWith(`${basePath}/`) ? request.path.slice(basePath.length) : request.path;
  const method = request.method as ApiRequest['method'];
  const sentPath = `${path}${search}`;
  const headers = flatten(endToEnd(request.headers as Record<string, string>, HOP_REQUEST_HEADERS));
  const sent: ApiRequest =
    request.body.length > 0
      ? { method, path: sentPath, headers, body: bodyText(request) }
      : { method, path: sentPath, headers };
  const exchange: ObservedExchange = {
    seq: event.seq,
    startedAt: isoTime(event.startedAt),
    request: sent,
    response: answerOf({
      status: event.status,
      headers: flatten(answer.headers),
      text: answer.text,
      durationMs: Math.round(answer.durationMs * 100) / 100,
    }),
  };
  lastEvent = event;
  lastBasePath = basePath;
  lastExchange = exchange;
  return exchange;
}
