import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import {
  controlGuard,
  createRedactor,
  type EdgeRequest,
  type HarNameValue,
  isControlPath,
  isLoopbackHost,
  isoTime,
  type ObservedRequest,
  openFrontDoor,
  refusalText,
  sendText,
} from '../http/index.ts';
import { ConfigError, DECIDED_LIMITS, loadSpec, routeRequest } from '../spec/index.ts';
import type { ApiRequest, ObservedExchange } from '../suites/index.ts';
import { createAnswerTexts } from './answer-texts.ts';
import { createExchangeLog } from './exchange-log.ts';
import { createUpstream, endToEnd, noAnswer, type Relayed, relay, statusText } from './forward.ts';
import { openHarRecorder } from './har-recorder.ts';
import { answerOf } from './lazy-answer.ts';
import { resolveProxyOptions } from './options.ts';
import type { ProxyOptions, RunningProxy } from './types.ts';

/** An answer body past this is forwarded whole but judged and recorded only by its size. */
export const KEPT_BODY_BYTES = 8 * 1024 * 1024;

/** The interface's error envelope, for the answers the proxy makes itself. */
const envelope = (message: string): { success: false; message: string } => ({ success: false, message });
const sendJson = (response: ServerResponse, status: number, body: unknown): void =>
  sendText(response, status, JSON.stringify(body));

/** An encoded slash or backslash in a path: an upstream that decodes it would read another path. */
const ENCODED_SEPARATOR = /%2f|%5c/i;

type Headers = Record<string, string | string[] | undefined>;

function flatten(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name in headers) {
    const value = headers[name];
    if (value !== undefined) out[name.toLowerCase()] = typeof value === 'string' ? value : value.join(', ');
  }
  return out;
}

function pairs(headers: Record<string, string | string[]>): HarNameValue[] {
  const out: HarNameValue[] = [];
  for (const name in headers) {
    const value = headers[name] as string | string[];
    if (typeof value === 'string') out.push({ name, value });
    else for (const item of value) out.push({ name, value: item });
  }
  return out;
}

/** Request headers that are this hop's: Expect: 100-continue was answered here (undici refuses to send it on). */
const HOP_REQUEST_HEADERS = ['host', 'content-length', 'expect'];

/** The request's headers as sent on the wire (names as the client spelled them), for the HAR. */
function rawPairs(raw: readonly string[]): HarNameValue[] {
  const out: HarNameValue[] = [];
  for (let index = 0; index + 1 < raw.length; index += 2)
    out.push({ name: raw[index] as string, value: raw[index + 1] as string });
  return out;
}

/**
 * Start a proxy between a client and the provider at `upstream`: every request is forwarded and
 * the answer returned as it came (status, end-to-end headers, body streamed); every completed
 * exchange is judged (the judge of `pacu check`'s envelope rules, plus what only a watcher of many
 * exchanges sees) and, with `record`, written to a HAR file with credentials redacted.
 *
 * @example
 * const proxy = await startProxy({ upstream: 'https://sandbox.example.com/v3', record: 'traffic.har' });
 * // … point the client at proxy.url …
 * console.log(proxy.findings());
 * await proxy.close();
 */
export async function startProxy(options: ProxyOptions): Promise<RunningProxy> {
  const resolved = resolveProxyOptions(options);
  const spec = await loadSpec();
  const upstreamBase = resolved.upstream.href.replace(/\/+$/, '');
  const upstreamRoot = resolved.upstream.pathname.slice(0, -spec.basePath.length);
  const recorder = resolved.record
    ? openHarRecorder(resolved.record, (error) =>
        resolved.log(`pacu proxy: cannot write the recording (it stops here): ${error.message}`),
      )
    : undefined;
  const redactor = createRedactor({
    ...(resolved.clientId !== undefined ? { clientId: resolved.clientId } : {}),
    ...(resolved.clientSecret !== undefined ? { clientSecret: resolved.clientSecret } : {}),
  });
  const log = createExchangeLog({
    spec,
    profile: resolved.profile,
    upstream: upstreamBase,
    redactor,
    recorder,
    record: resolved.record,
    keepExchanges: resolved.keepExchanges,
    onFinding: resolved.onFinding,
    log: resolved.log,
  });
  const controlToken =
    resolved.controlToken ??
    (isLoopbackHost(resolved.host) ? undefined : randomBytes(18).toString('base64url'));
  const guard = controlGuard(resolved.host, controlToken);
  const routes: Record<string, () => unknown> = {
    '/__pacu/exchanges': () => log.exchanges(),
    '/__pacu/findings': () => log.findings(),
  };
  const pool = createUpstream(resolved);
  const answerText = createAnswerTexts();
  let seq = 0;
  // Completed exchanges wait here for the check phase, in order of completion, and are recorded in
  // one write per batch; close() drains it.
  let waiting: Array<() => void> = [];
  let draining: NodeJS.Immediate | undefined;
  const drain = (): void => {
    draining = undefined;
    const batch = waiting;
    waiting = [];
    for (const job of batch) job();
    recorder?.flush();
  };
  const afterAnswers = (job: () => void): void => {
    waiting.push(job);
    draining ??= setImmediate(drain);
  };

  /** The control API: read-only, `{ error }` on refusal, under the mock's guards. */
  const control = (request: EdgeRequest, path: string): [number, unknown] => {
    if (!resolved.control) return [404, { error: `no control endpoint ${path}` }];
    const refused = guard(request.headers as Record<string, string | undefined>);
    if (refused) return [refused.status, { error: refused.message }];
    const route = routes[path];
    if (!route)
      return [
        404,
        { error: `no control endpoint ${path} (the proxy has ${Object.keys(routes).join(', ')})` },
      ];
    if (request.method !== 'GET')
      return [405, { error: `${request.method} is not allowed on ${path}; use GET` }];
    return [200, route()];
  };

  const forward = async (request: EdgeRequest, response: ServerResponse): Promise<void> => {
    const { path, search, body, method } = request;
    const url = `${path}${search}`;
    const relative = `${path.slice(spec.basePath.length)}${search}`;
    const observers = resolved.observers;
    // Made only for observers (a library user's): most proxies have none.
    const observed: ObservedRequest | undefined =
      observers.length === 0
        ? undefined
        : {
            method,
            path,
            query: new URLSearchParams(search),
            headers: request.headers as Record<string, string | undefined>,
            body,
          };
    if (observed) for (const observer of observers) observer.start?.(observed);
    const routed = routeRequest(spec, method, relative);
    const operationId = routed.kind === 'operation' ? routed.operation.id : undefined;
    if (observed && operationId) for (const observer of observers) observer.match?.(observed, operationId);
    const startedAt = new Date();
    const started = performance.now();
    const number = ++seq;
    const forwarded = endToEnd(request.headers, HOP_REQUEST_HEADERS);
    const requestBody = body.length > 0 ? body.toString('utf8') : undefined;
    // What a curl line sends again: the end-to-end headers, without the hop's host and length.
    const sent: ApiRequest = {
      method: method as ApiRequest['method'],
      path: relative,
      headers: flatten(forwarded),
      ...(requestBody !== undefined ? { body: requestBody } : {}),
    };
    const ended = (status: number): void => {
      if (observed)
        for (const observer of observers)
          observer.end?.({ request: observed, operationId, clientId: undefined, status, fault: undefined });
    };
    let abort: (() => void) | undefined;
    let cut = false;
    response.once('close', () => {
      if (response.writableFinished) return;
      cut = true;
      abort?.();
    });
    let answer: Relayed;
    let headers: Record<string, string | string[]> = {};
    try {
      answer = await relay(
        pool,
        {
          path: `${upstreamRoot}${url}`,
          method,
          headers: forwarded,
          body: body.length > 0 || method === 'POST' ? body : null,
        },
        {
          start: (status, received) => {
            headers = endToEnd(received);
            response.writeHead(status, headers);
          },
          data: (chunk, resume) => {
            if (response.write(chunk)) return true;
            response.once('drain', resume);
            return false;
          },
          abortWith: (stop) => {
            abort = stop;
            if (cut) stop();
          },
        },
        KEPT_BODY_BYTES,
      );
    } catch (error) {
      if (cut) return ended(0);
      if ((error as { started?: boolean }).started) {
        // The upstream broke off mid-answer: so does the client's connection, and nothing is recorded.
        response.destroy();
        return ended(0);
      }
      const { status, message } = noAnswer(error, upstreamBase, resolved.upstreamTimeoutMs);
      const refusal = envelope(message);
      sendJson(response, status, refusal);
      ended(status);
      log.report({
        side: 'provider',
        rule: 'transport.no-answer',
        profile: 'documented',
        reason: message.replace(/^pacu proxy: /, ''),
        operation: operationId,
        exchange: {
          seq: number,
          startedAt: isoTime(startedAt),
          request: sent,
          response: {
            status,
            headers: { 'content-type': 'application/json; charset=utf-8' },
            text: JSON.stringify(refusal),
            json: refusal,
            durationMs: performance.now() - started,
          },
        },
      });
      return;
    }
    response.end();
    ended(answer.status);
    // The answer's bytes leave in this tick's uncork (a nextTick): judging and recording wait for
    // the check phase, so the client's latency does not include them.
    const durationMs = Math.round((performance.now() - started) * 100) / 100;
    afterAnswers(() => {
      const size = answer.size;
      const kept = size <= KEPT_BODY_BYTES;
      // The client got the bytes as they came; the judge and the HAR read them decoded.
      const chunks = answer.chunks as Buffer[];
      const { text, seen } = kept
        ? answerText(
            method,
            chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size),
            headers['content-encoding'],
          )
        : { text: '', seen: false };
      const exchange: ObservedExchange = {
        seq: number,
        startedAt: isoTime(startedAt),
        request: sent,
        response: answerOf({ status: answer.status, headers: flatten(headers), text, durationMs }),
      };
      log.complete(
        exchange,
        routed,
        recorder && {
          startedAt,
          durationMs,
          method,
          url: `${resolved.upstream.origin}${upstreamRoot}${url}`,
          requestHeaders: rawPairs(request.rawHeaders),
          ...(requestBody !== undefined ? { requestBody } : {}),
          status: answer.status,
          statusText: statusText(answer.status),
          responseHeaders: pairs(headers),
          responseBody: kept ? text : `(${size} bytes, not kept)`,
          ...(operationId ? { operation: operationId } : {}),
        },
        seen,
      );
    });
  };

  /** Under the interface's base path, and nothing an upstream could read as another path: forward. */
  const handle = (request: EdgeRequest, response: ServerResponse): void => {
    const { path } = request;
    const refusal = isControlPath(path)
      ? control(request, path)
      : !path.startsWith(`${spec.basePath}/`)
        ? [
            404,
            envelope(
              `pacu proxy: ${path} is outside the interface's base path ${spec.basePath}: nothing was forwarded`,
            ),
          ]
        : ENCODED_SEPARATOR.test(path)
          ? [
              400,
              envelope(
                'pacu proxy: an encoded slash or backslash (%2F, %5C) in the path could name another path upstream: nothing was forwarded',
              ),
            ]
          : undefined;
    if (refusal) sendJson(response, refusal[0] as number, refusal[1]);
    else
      forward(request, response).catch((error: Error) => {
        resolved.log(
          `pacu proxy: unexpected error on ${request.method} ${path}: ${error.stack ?? error.message}`,
        );
        if (!response.headersSent) sendJson(response, 502, envelope('pacu proxy: internal error (logged)'));
        else response.destroy();
      });
  };
  let listener: Awaited<ReturnType<typeof openFrontDoor>>;
  try {
    listener = await openFrontDoor({
      host: resolved.host,
      port: resolved.port,
      limits: resolved.limits,
      bodyLimit: () => DECIDED_LIMITS.maxBodyBytes,
      errorBody: (path, _status, message) => refusalText(path, message),
      handle,
      log: resolved.log,
    });
  } catch (error) {
    await pool.close();
    await recorder?.close();
    throw new ConfigError(
      `pacu: cannot listen on ${resolved.host}:${resolved.port}: ${(error as Error).message}`,
      {
        cause: error,
      },
    );
  }
  let closing: Promise<void> | undefined;
  return {
    url: `${listener.origin}${spec.basePath}`,
    origin: listener.origin,
    upstream: upstreamBase,
    controlToken,
    findings: log.findings,
    exchanges: log.exchanges,
    counts: log.counts,
    report: log.toReport,
    close() {
      closing ??= (async () => {
        await listener.close();
        await pool.close();
        if (draining) clearImmediate(draining);
        drain();
        await recorder?.close();
      })();
      return closing;
    },
  };
}
