import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  CONTROL_PREFIX,
  ConfigError,
  controlGuard,
  DECIDED_LIMITS,
  harEntry,
  isLoopbackHost,
  loadSpec,
  type ObservedRequest,
  routeRequest,
} from '../spec/index.ts';
import {
  type ApiRequest,
  type ApiResponse,
  createExchangeState,
  createRedactor,
  type ExchangeFinding,
  judgeExchange,
  type ObservedExchange,
} from '../suites/index.ts';
import { createUpstream, endToEnd, noAnswer, statusText } from './forward.ts';
import { type HarRecorder, openHarRecorder } from './har-recorder.ts';
import { resolveProxyOptions } from './options.ts';
import { buildProxyReport } from './proxy-report.ts';
import type { ProxyOptions, RunningProxy } from './types.ts';

/** An answer body past this is forwarded whole but judged and recorded only by its size. */
export const KEPT_BODY_BYTES = 8 * 1024 * 1024;
/** Findings kept for `findings()` and the report; later ones are counted, not kept. */
export const KEPT_FINDINGS = 10_000;
/** After close() starts, requests in flight get this long before their connections are cut. */
const CLOSE_GRACE_MS = 5000;
const LINGER_MS = 5000;

const isControl = (path: string): boolean => path === CONTROL_PREFIX || path.startsWith(`${CONTROL_PREFIX}/`);

function sendJson(response: ServerResponse, status: number, body: unknown, close = false): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    ...(close ? { connection: 'close' } : {}),
  });
  response.end(text);
}

/** The interface's error envelope, for answers the proxy makes itself (413, 502, 504). */
const envelope = (message: string) => ({ success: false, message });

/** After refusing an upload, read (and drop) what is still coming for a while, so the 413 is read. */
function linger(request: IncomingMessage): void {
  const stop = setTimeout(() => request.socket.destroy(), LINGER_MS);
  stop.unref();
  request.socket.once('close', () => clearTimeout(stop));
  request.resume();
}

function flatten(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers))
    if (value !== undefined) out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  return out;
}

const pairs = (headers: Record<string, string | string[]>) =>
  Object.entries(headers).flatMap(([name, value]) =>
    (Array.isArray(value) ? value : [value]).map((item) => ({ name, value: item })),
  );

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * Start a proxy between a client and the provider at `upstream`: every request is forwarded and
 * the answer returned as it came (status, end-to-end headers, body streamed); every completed
 * exchange is judged (the same judge as `pacu check`'s envelope rules, plus what only a watcher of
 * many exchanges sees) and, with `record`, written to a HAR file with credentials redacted.
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
  const pool = createUpstream(resolved);
  const recorder: HarRecorder | undefined = resolved.record
    ? await openHarRecorder(resolved.record)
    : undefined;
  const redactor = createRedactor({
    ...(resolved.clientId !== undefined ? { clientId: resolved.clientId } : {}),
    ...(resolved.clientSecret !== undefined ? { clientSecret: resolved.clientSecret } : {}),
  });
  const state = createExchangeState();
  const found: ExchangeFinding[] = [];
  const judged = new Map<string, Map<string, number>>();
  const proxyStarted = new Date();
  let dropped = 0;
  const recent: ObservedExchange[] = [];
  let seq = 0;
  let completed = 0;
  /** The kept exchanges, oldest first. */
  const inOrder = (): ObservedExchange[] => {
    if (recent.length < resolved.keepExchanges) return [...recent];
    const at = completed % resolved.keepExchanges;
    return [...recent.slice(at), ...recent.slice(0, at)];
  };
  const controlToken =
    resolved.controlToken ??
    (isLoopbackHost(resolved.host) ? undefined : randomBytes(18).toString('base64url'));
  const guard = controlGuard(resolved.host, controlToken);

  const report = (finding: ExchangeFinding): void => {
    if (found.length < KEPT_FINDINGS) found.push(finding);
    else dropped += 1;
    resolved.onFinding?.(redactor.redact(finding));
  };

  /** Judge, keep and record an exchange whose answer reached the client whole. */
  const complete = (
    observed: ObservedRequest,
    exchange: ObservedExchange,
    operationId: string | undefined,
  ): void => {
    completed += 1;
    redactor.observe(exchange.response);
    const verdict = judgeExchange(spec, exchange, resolved.profile);
    const byRule = judged.get(operationId ?? 'unknown') ?? new Map<string, number>();
    judged.set(operationId ?? 'unknown', byRule);
    for (const rule of verdict.checked) byRule.set(rule, (byRule.get(rule) ?? 0) + 1);
    for (const finding of verdict.findings) report(finding);
    for (const finding of state.observe(operationId, exchange)) report(finding);
    // A ring: the oldest slot is overwritten, nothing moves.
    if (recent.length < resolved.keepExchanges) recent.push(exchange);
    else if (resolved.keepExchanges > 0) recent[(completed - 1) % resolved.keepExchanges] = exchange;
    for (const observer of resolved.observers)
      observer.end?.({
        request: observed,
        operationId,
        clientId: undefined,
        status: exchange.response.status,
        fault: undefined,
      });
  };

  const routes: Record<string, () => unknown> = {
    '/__pacu/exchanges': () => redactor.redact(inOrder()),
    '/__pacu/findings': () => redactor.redact(found),
  };
  /** The control API's answer, `{ error }` on refusal, under the mock's guards. */
  const controlAnswer = (request: IncomingMessage, path: string): [number, unknown] => {
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

  const forward = async (
    request: IncomingMessage,
    response: ServerResponse,
    body: Buffer,
    clientGone: () => boolean,
  ): Promise<void> => {
    const url = request.url ?? '/';
    const queryAt = url.indexOf('?');
    const path = queryAt < 0 ? url : url.slice(0, queryAt);
    const relative = path.startsWith(`${spec.basePath}/`) ? url.slice(spec.basePath.length) : url;
    const observed: ObservedRequest = {
      method: request.method ?? 'GET',
      path,
      query: new URLSearchParams(queryAt < 0 ? '' : url.slice(queryAt + 1)),
      headers: request.headers as Record<string, string | undefined>,
      body,
    };
    for (const observer of resolved.observers) observer.start?.(observed);
    const routed = routeRequest(spec, observed.method, relative);
    const operationId = routed.kind === 'operation' ? routed.operation.id : undefined;
    if (operationId) for (const observer of resolved.observers) observer.match?.(observed, operationId);
    const startedAt = new Date();
    const started = performance.now();
    const number = ++seq;
    const forwarded = endToEnd(request.headers, ['host', 'content-length']);
    // What a curl line sends again: the end-to-end headers, without the hop's host and length.
    const sentHeaders = flatten(forwarded);
    const abort = new AbortController();
    response.once('close', () => {
      if (!response.writableFinished) abort.abort();
    });
    let upstream: Awaited<ReturnType<typeof pool.request>>;
    try {
      upstream = await pool.request({
        path: `${upstreamRoot}${url}`,
        method: observed.method as 'GET',
        headers: forwarded,
        body: body.length > 0 || observed.method === 'POST' ? body : null,
        signal: abort.signal,
      });
    } catch (error) {
      if (clientGone() || abort.signal.aborted) return;
      const { status, message } = noAnswer(error, upstreamBase, resolved.upstreamTimeoutMs);
      const answer = envelope(message);
      sendJson(response, status, answer);
      report({
        side: 'provider',
        rule: 'transport.no-answer',
        profile: 'documented',
        reason: message.replace(/^pacu proxy: /, ''),
        operation: operationId,
        exchange: {
          seq: number,
          startedAt: startedAt.toISOString(),
          request: {
            method: observed.method as ApiRequest['method'],
            path: relative,
            headers: sentHeaders,
            ...(body.length > 0 ? { body: body.toString('utf8') } : {}),
          },
          response: {
            status,
            headers: {},
            text: '',
            json: undefined,
            durationMs: performance.now() - started,
          },
        },
      });
      return;
    }
    const headers = endToEnd(upstream.headers);
    response.writeHead(upstream.statusCode, headers);
    const chunks: Buffer[] = [];
    let size = 0;
    try {
      for await (const chunk of upstream.body as AsyncIterable<Buffer>) {
        size += chunk.length;
        if (size <= KEPT_BODY_BYTES) chunks.push(chunk);
        if (!response.write(chunk)) await new Promise((resolve) => response.once('drain', resolve));
        if (clientGone()) return;
      }
    } catch {
      // The upstream broke off mid-answer: so does the client's connection, and nothing is recorded.
      response.destroy();
      return;
    }
    response.end();
    const durationMs = Math.round((performance.now() - started) * 100) / 100;
    const text = size <= KEPT_BODY_BYTES ? Buffer.concat(chunks, size).toString('utf8') : '';
    const requestBody = body.length > 0 ? body.toString('utf8') : undefined;
    const exchange: ObservedExchange = {
      seq: number,
      startedAt: startedAt.toISOString(),
      request: {
        method: observed.method as ApiRequest['method'],
        path: relative,
        headers: sentHeaders,
        ...(requestBody !== undefined ? { body: requestBody } : {}),
      },
      response: {
        status: upstream.statusCode,
        headers: flatten(headers),
        text,
        json: parseJson(text),
        durationMs,
      } satisfies ApiResponse,
    };
    complete(observed, exchange, operationId);
    if (recorder) {
      const rawHeaders: Array<{ name: string; value: string }> = [];
      for (let index = 0; index + 1 < request.rawHeaders.length; index += 2)
        rawHeaders.push({
          name: request.rawHeaders[index] as string,
          value: request.rawHeaders[index + 1] as string,
        });
      const entry = harEntry({
        ...redactor.redact({
          durationMs,
          method: observed.method,
          url: `${upstreamBase}${relative}`,
          requestHeaders: rawHeaders,
          ...(requestBody !== undefined ? { requestBody } : {}),
          status: upstream.statusCode,
          statusText: statusText(upstream.statusCode),
          responseHeaders: pairs(headers),
          responseBody: size <= KEPT_BODY_BYTES ? text : `(${size} bytes, not kept)`,
          ...(operationId ? { operation: operationId } : {}),
        }),
        startedAt,
      });
      await recorder
        .add(entry)
        .catch((error: Error) => resolved.log(`pacu proxy: cannot write the recording: ${error.message}`));
    }
  };

  const server = createServer({ requestTimeout: 0 }, (request, response) => {
    const url = request.url ?? '/';
    const path = url.split('?')[0] ?? url;
    if (isControl(path)) {
      request.resume();
      const [status, body] = controlAnswer(request, path);
      return sendJson(response, status, body);
    }
    const limit = DECIDED_LIMITS.maxBodyBytes;
    const refuse = (): void => {
      linger(request);
      sendJson(response, 413, envelope(`request body is over ${limit} bytes`), true);
    };
    if (Number(request.headers['content-length'] ?? 0) > limit) return refuse();
    const chunks: Buffer[] = [];
    let size = 0;
    let gone = false;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        chunks.length = 0;
        if (!response.headersSent) refuse();
        return;
      }
      chunks.push(chunk);
    });
    // A client that leaves before its body is whole sends nothing upstream.
    request.on('aborted', () => {
      gone = true;
    });
    response.on('close', () => {
      if (!response.writableFinished) gone = true;
    });
    request.on('error', () => request.destroy());
    request.on('end', () => {
      if (size > limit || gone || response.headersSent) return;
      forward(
        request,
        response,
        chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks),
        () => gone,
      ).catch((error: Error) => {
        resolved.log(
          `pacu proxy: unexpected error on ${request.method} ${path}: ${error.stack ?? error.message}`,
        );
        if (!response.headersSent) sendJson(response, 502, envelope('pacu proxy: internal error (logged)'));
        else response.destroy();
      });
    });
  });
  server.keepAliveTimeout = 5000;
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(resolved.port, resolved.host, () => {
        server.off('error', reject);
        resolve();
      });
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
  const address = server.address() as AddressInfo;
  const origin = `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`;
  let closing: Promise<void> | undefined;
  return {
    url: `${origin}${spec.basePath}`,
    origin,
    upstream: upstreamBase,
    controlToken,
    findings: () => redactor.redact(found),
    exchanges: () => redactor.redact(inOrder()),
    counts: () => ({ exchanges: completed, recorded: recorder?.recorded ?? 0 }),
    report: () =>
      buildProxyReport({
        upstream: upstreamBase,
        profile: resolved.profile,
        startedAt: proxyStarted,
        findings: found,
        judged,
        exchanges: completed,
        recorded: recorder?.recorded ?? 0,
        record: resolved.record,
        dropped,
        redactor,
      }),
    close() {
      closing ??= (async () => {
        await new Promise<void>((done) => {
          const force = setTimeout(() => server.closeAllConnections(), CLOSE_GRACE_MS);
          force.unref();
          server.close(() => {
            clearTimeout(force);
            done();
          });
          server.closeIdleConnections();
        });
        await pool.close();
        await recorder?.close();
      })();
      return closing;
    },
  };
}
