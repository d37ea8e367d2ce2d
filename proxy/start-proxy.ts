import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import {
  controlGuard,
  type EdgeRequest,
  errorEnvelope,
  errorEnvelopeText,
  type ForgottenSecrets,
  isControlPath,
  isLoopbackHost,
  openFrontDoor,
  openSurfaceKit,
  type Redactor,
  type RequestObserver,
  refusalText,
  rememberForgotten,
  sendText,
} from '../http/index.ts';
import { ConfigError, DECIDED_LIMITS, loadSpec } from '../spec/index.ts';
import {
  createExchangeRing,
  createFindingLog,
  createJudgeObserver,
  createStateObserver,
  type ExchangeRing,
  type FindingLog,
} from '../suites/index.ts';
import { createAnswerTexts } from './answer-texts.ts';
import { createUpstream } from './forward.ts';
import { type ForwardContext, forwardExchange } from './forward-exchange.ts';
import { resolveProxyOptions } from './options.ts';
import { buildProxyReport } from './proxy-report.ts';
import { createRouteMemory } from './route-memory.ts';
import type { ProxyOptions, RunningProxy } from './types.ts';

/** An encoded slash or backslash in a path: an upstream that decodes it would read another path. */
const ENCODED_SEPARATOR = /%2f|%5c/i;

/**
 * Start a proxy between a client and the provider at `upstream`, forwarding every request and its
 * answer as it came. Each exchange goes down one pipeline: recorded (redacted) before the answer's
 * last bytes leave, then judged, followed by the exchange state, and kept in the ring.
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
  const startedAt = new Date();
  const upstreamBase = resolved.upstream.href.replace(/\/+$/, '');
  const upstreamRoot = resolved.upstream.pathname.slice(0, -spec.basePath.length);
  const upstreamPrefix = `${resolved.upstream.origin}${upstreamRoot}`;
  // The judge, the exchange state and the ring watch as the surface's own observers of the kit's
  // pipeline, with the kit's one redactor.
  let findings!: FindingLog;
  let judge!: ReturnType<typeof createJudgeObserver>;
  let ring!: ExchangeRing;
  let forgotten!: ForgottenSecrets;
  const watchers = (redactor: Redactor): RequestObserver[] => {
    findings = createFindingLog(redactor, resolved.onFinding);
    judge = createJudgeObserver({ spec, profile: resolved.profile, findings });
    ring = createExchangeRing(resolved.keepExchanges, spec.basePath);
    // The ring is redacted when read: what the redactor forgets meanwhile is redacted in it still.
    forgotten = rememberForgotten(redactor, resolved.keepExchanges);
    const counted: RequestObserver = {
      end: () => forgotten.arriving(),
      settled: (event) => {
        ring.settled?.(event);
        forgotten.kept();
      },
    };
    return [judge, createStateObserver({ spec, findings }), counted];
  };
  const kit = openSurfaceKit({
    surface: 'pacu proxy',
    redaction: {
      ...(resolved.clientId !== undefined ? { clientId: resolved.clientId } : {}),
      ...(resolved.clientSecret !== undefined ? { clientSecret: resolved.clientSecret } : {}),
      headers: resolved.redactHeaders,
      fields: resolved.redactFields,
      keepCardData: resolved.keepCardData,
    },
    // The URL recorded is the one sent: the upstream's base and the resolved path.
    record: resolved.record
      ? { file: resolved.record, origin: () => upstreamPrefix, onError: resolved.onRecordError }
      : undefined,
    observers: watchers,
    extra: resolved.observers,
    log: resolved.log,
  });
  const { redactor, recording, pipeline, log } = kit;
  const exchanges = () => redactor.redact(forgotten.scrubAll(ring.exchanges()));
  const controlToken =
    resolved.controlToken ??
    (isLoopbackHost(resolved.host) ? undefined : randomBytes(18).toString('base64url'));
  const guard = controlGuard(resolved.host, controlToken);
  const routes: Record<string, () => unknown> = {
    '/__pacu/exchanges': () => exchanges(),
    '/__pacu/findings': () => findings.findings(),
  };
  const pool = createUpstream(resolved);
  const basePrefix = `${spec.basePath}/`;
  let seq = 0;

  /** The control API: read-only, `{ error }` on refusal, under the mock's guards. */
  const control = (request: EdgeRequest): [number, unknown] => {
    const { path } = request;
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

  const forwarding: ForwardContext = {
    pool,
    pipeline,
    answerText: createAnswerTexts(),
    upstreamBase,
    upstreamHost: resolved.upstream.host,
    upstreamRoot,
    upstreamTimeoutMs: resolved.upstreamTimeoutMs,
    basePath: spec.basePath,
    route: createRouteMemory(spec),
    next: () => ++seq,
    failed(request, response, error) {
      log(
        `pacu proxy: unexpected error on ${request.method} ${request.path}: ${(error as Error)?.stack ?? error}`,
      );
      if (!response.headersSent)
        sendText(response, 502, errorEnvelopeText('pacu proxy: internal error (logged)'));
      else response.destroy();
    },
  };

  /** Under the interface's base path, and nothing an upstream could read as another path: forward. */
  const handle = (request: EdgeRequest, response: ServerResponse): void => {
    const { path } = request;
    const refusal: [number, unknown] | undefined = isControlPath(path)
      ? control(request)
      : !path.startsWith(basePrefix)
        ? [
            404,
            errorEnvelope(
              `pacu proxy: ${path} is outside the interface's base path ${spec.basePath}: nothing was forwarded`,
            ),
          ]
        : ENCODED_SEPARATOR.test(path)
          ? [
              400,
              errorEnvelope(
                'pacu proxy: an encoded slash or backslash (%2F, %5C) in the path could name another path upstream: nothing was forwarded',
              ),
            ]
          : undefined;
    if (refusal) sendText(response, refusal[0], JSON.stringify(refusal[1]));
    else
      try {
        forwardExchange(forwarding, request, response);
      } catch (error) {
        forwarding.failed(request, response, error);
      }
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
      log,
    });
  } catch (error) {
    await pool.close();
    await kit.close();
    throw new ConfigError(
      `pacu: cannot listen on ${resolved.host}:${resolved.port}: ${(error as Error).message}`,
      {
        cause: error,
      },
    );
  }
  // The judge's schemas compile now, between the first exchanges if any come, not on them.
  judge.warm();
  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= (async () => {
      await listener.close();
      await pool.close();
      await kit.close();
    })();
    return closing;
  };
  // A recording that cannot be written, with onRecordError 'stop': no new request is taken.
  const halted = kit.halted.then(async (error) => {
    await listener.close();
    return error;
  });
  return {
    url: `${listener.origin}${spec.basePath}`,
    origin: listener.origin,
    upstream: upstreamBase,
    controlToken,
    findings: findings.findings,
    exchanges,
    halted,
    counts: () => ({
      exchanges: judge.exchanges,
      recorded: recording?.recorded ?? 0,
      notRecorded: recording?.lost ?? 0,
    }),
    report: () =>
      buildProxyReport({
        upstream: upstreamBase,
        profile: resolved.profile,
        startedAt,
        findings: findings.findings(),
        judged: judge.judged,
        exchanges: judge.exchanges,
        recorded: recording?.recorded ?? 0,
        notRecorded: recording?.lost ?? 0,
        record: resolved.record,
        dropped: findings.dropped,
        redactor,
      }),
    close,
  };
}
