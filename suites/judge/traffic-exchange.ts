import { bodyText, endToEnd, isoTime, type RequestEnd } from '../../http/index.ts';
import type { ApiRequest } from '../target/api-request.ts';
import type { ObservedExchange } from './exchange-judge.ts';
import { answerOf } from './lazy-answer.ts';

/** Request headers that are the hop's, not the message's: a curl line sends its own. */
const HOP_REQUEST_HEADERS = ['host', 'content-length', 'expect'];

type Headers = Readonly<Record<string, string | readonly string[] | undefined>>;

/** Header values joined as `ApiRequest` and `ApiResponse` keep them (repeated ones with `, `). */
function flatten(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name in headers) {
    const value = headers[name];
    if (value !== undefined) out[name] = typeof value === 'string' ? value : value.join(', ');
  }
  return out;
}

/** Made once per event, however many observers (judge, state, ring) read it. */
const made = new WeakMap<RequestEnd, ObservedExchange>();

/**
 * A request's end as the judges read an exchange: the path relative to `basePath` with its query
 * (as `pacu check`'s requests are), the end-to-end request headers, the answer with its JSON
 * parsed on first read.
 */
export function exchangeOf(event: RequestEnd, basePath: string): ObservedExchange {
  let exchange = made.get(event);
  if (exchange) return exchange;
  const { request, answer } = event;
  const search = request.search ?? (request.query.size > 0 ? `?${request.query}` : '');
  const path = request.path.startsWith(`${basePath}/`) ? request.path.slice(basePath.length) : request.path;
  const sent: ApiRequest = {
    method: request.method as ApiRequest['method'],
    path: `${path}${search}`,
    headers: flatten(endToEnd(request.headers as Record<string, string>, HOP_REQUEST_HEADERS)),
    ...(request.body.length > 0 ? { body: bodyText(request) } : {}),
  };
  exchange = {
    seq: event.seq,
    startedAt: isoTime(new Date(event.startedAt)),
    request: sent,
    response: answerOf({
      status: event.status,
      headers: flatten(answer.headers),
      text: answer.text,
      durationMs: Math.round(answer.durationMs * 100) / 100,
    }),
  };
  made.set(event, exchange);
  return exchange;
}
