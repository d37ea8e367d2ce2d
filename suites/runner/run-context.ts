import { randomBytes } from 'node:crypto';
import type { Redactor } from '../../http/index.ts';
import { ConfigError, type Profile, type Spec, TargetUnreachableError } from '../../spec/index.ts';
import { errorShapeProblem } from '../judge/envelope-checks.ts';
import type { ErrorAnswerProblem, ReceivingCase } from '../rules/rule.ts';
import { type ApiClient, createApiClient } from '../target/api-client.ts';
import type { ApiRequest, ApiResponse } from '../target/api-request.ts';
import { assertTargetReachable } from '../target/assert-reachable.ts';
import { type ControlApiClient, createControlClient } from '../target/control-client.ts';
import { InconclusiveExchange } from '../target/inconclusive.ts';
import { createPacer, PACER_DEFAULTS, type Pacer } from '../target/pacer.ts';
import { idsFor, type ResolvedIds, resolveIds } from '../target/resolve-ids.ts';
import type { TargetConfig } from '../target/target-config.ts';
import { createTokenSource, TokenRefused, type TokenSource } from '../target/token-source.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../webhooks/webhook-receiver.ts';
import { LIFECYCLE_KINDS, type LifecycleObservation, observeLifecycles } from './lifecycle-observation.ts';
import type { Wording } from './setting.ts';

/** The error answers of one operation, judged as they arrive. */
export interface ErrorAnswers {
  judged: number;
  readonly problems: ErrorAnswerProblem[];
}

/**
 * What one `runChecks` owns for the length of the run: the API client, the token source, the ids,
 * the control API, the webhook receiver, the lifecycle observation and the error answers seen.
 * Nothing here outlives the run (no module-level caches).
 */
export interface RunContext {
  readonly spec: Spec<string>;
  readonly profile: Profile;
  readonly config: TargetConfig;
  /** How skip reasons and errors name a setting, for the surface that asked. */
  readonly word: Wording;
  readonly api: ApiClient;
  readonly tokens: TokenSource;
  readonly ids: ResolvedIds;
  readonly control?: ControlApiClient;
  readonly seed: number;
  readonly numRuns: number;
  readonly path?: string;
  readonly runNonce: string;
  /** The lifecycle observation, made once by the first rule that needs it (`rule`, so its replay remakes it). */
  observation(rule: string): Promise<LifecycleObservation | { readonly reason: string }>;
  /**
   * Send a request of the case `receivedIn` on `operation`: a token pacu holds is swapped for a fresh
   * one, an unexpected 401 on it is retried once with a new token (so an expired cached token is never
   * taken for the target's fault), and every error answer's envelope is judged for envelope.error-shape,
   * remembering the case so the failure's replay line reruns it.
   */
  send(request: ApiRequest, operation: string, receivedIn: ReceivingCase): Promise<ApiResponse>;
  /** Error answers every rule received, by operation: how many, and those whose envelope is wrong. */
  readonly errorAnswers: Map<string, ErrorAnswers>;
  close(): Promise<void>;
}

export interface RunContextOptions {
  readonly spec: Spec<string>;
  readonly profile: Profile;
  readonly config: TargetConfig;
  readonly seed: number;
  readonly numRuns: number;
  readonly path?: string;
  /** The run's one gate for requests. @default one of its own, unlimited */
  readonly pacer?: Pacer;
  readonly redactor: Redactor;
  readonly word: Wording;
}

/** Where pacu listens for the target's deliveries: the host and port of --webhook-receiver-url. */
function receiverAddress(url: string): { host: string; port: number } {
  const parsed = new URL(url);
  return {
    host: parsed.hostname.replace(/^\[|\]$/g, ''),
    port: Number(parsed.port || (parsed.protocol === 'https:' ? 443 : 80)),
  };
}

const BEARER = /^Bearer\s+(\S+)$/;

const withToken = (request: ApiRequest, token: string): ApiRequest => ({
  ...request,
  headers: { ...request.headers, authorization: `Bearer ${token}` },
});

function createSend(
  spec: Spec<string>,
  api: ApiClient,
  tokens: TokenSource,
  errorAnswers: Map<string, ErrorAnswers>,
): RunContext['send'] {
  return async (request, operation, receivedIn) => {
    const held = BEARER.exec(request.headers.authorization ?? '')?.[1];
    const scopes = held === undefined ? undefined : tokens.owns(held);
    // The held token is put in when the request's turn comes: it may wait at the gate past its refresh.
    let sent = request;
    const atTurn = scopes && {
      fill: (given: ApiRequest): ApiRequest | undefined => {
        const token = tokens.fresh(scopes);
        if (token !== undefined) sent = withToken(given, token);
        return token === undefined ? undefined : sent;
      },
      refresh: () => tokens.get(scopes),
    };
    let response = await api.send(request, atTurn ? { atTurn } : {});
    if (response.status === 401 && scopes) {
      await tokens.renew(BEARER.exec(sent.headers.authorization ?? '')?.[1] ?? '');
      response = await api.send(request, atTurn ? { atTurn } : {});
    }
    if (response.status >= 400) {
      const problem = errorShapeProblem(response, { spec, operation });
      const seen = errorAnswers.get(operation) ?? { judged: 0, problems: [] };
      seen.judged += 1;
      // One problem per status: rules run side by side, so the first few answers all come from one of them.
      if (
        problem &&
        seen.problems.length < 10 &&
        !seen.problems.some((p) => p.response?.status === response.status)
      )
        seen.problems.push({
          ok: false,
          reason: `an HTTP ${response.status} answer (received by ${receivedIn.label}): ${problem}`,
          request: sent,
          response,
          receivedIn,
        });
      errorAnswers.set(operation, seen);
    }
    return response;
  };
}

/**
 * Probe the target once, up front, and set the run's fixtures up. Anything that means no verdict can
 * be trusted is a usage error here (exit 2): an unreachable target, no client credentials, a target
 * that is not the API (HTML, a token endpoint without JSON, a base URL without /v3), a control URL
 * that is not a pacu mock, a webhook port pacu cannot listen on.
 */
export async function openRunContext(options: RunContextOptions): Promise<RunContext> {
  const { config, spec } = options;
  const transport = {
    baseUrl: config.baseUrl,
    ...(config.headers ? { headers: config.headers } : {}),
    ...(config.timeoutMs !== undefined ? { timeoutMs: config.timeoutMs } : {}),
  };
  await assertTargetReachable(transport);
  let control: ControlApiClient | undefined;
  if (config.controlUrl) {
    control = createControlClient(config.controlUrl);
    const problem = await control.probe();
    if (problem)
      throw new ConfigError(`pacu: ${options.word('controlUrl')} ${config.controlUrl}: ${problem}`);
  }
  const api = createApiClient({
    ...transport,
    connections: PACER_DEFAULTS.maxInFlight,
    pacer: options.pacer ?? createPacer(),
    observe: (response: ApiResponse) => options.redactor.observe(response),
  });
  let receiver: WebhookReceiver | undefined;
  try {
    const tokens = createTokenSource(api, config, options.word);
    let token: string;
    try {
      token = await tokens.get();
    } catch (error) {
      if (error instanceof TokenRefused) throw new ConfigError(`pacu: ${error.message}`, { cause: error });
      if (error instanceof InconclusiveExchange)
        throw new TargetUnreachableError(`pacu: the target lost the first token request: ${error.message}`, {
          cause: error,
        });
      throw error;
    }
    if (config.webhook?.receiverUrl) {
      const { host, port } = receiverAddress(config.webhook.receiverUrl);
      receiver = await startWebhookReceiver(port, host, options.word('webhook.receiverUrl'));
    }
    const resolve = () => resolveIds(spec, api, token, config.ids, options.word, control);
    // The account pacu funds payments from is set-up, never judged: if its answer is lost, one more is harmless.
    const ids = await resolve().catch((error: unknown) => {
      if (error instanceof InconclusiveExchange) return resolve();
      throw error;
    });
    const errorAnswers = new Map<string, ErrorAnswers>();
    const send = createSend(spec, api, tokens, errorAnswers);
    const runNonce = randomBytes(4).toString('hex');
    let observed: Promise<LifecycleObservation | { readonly reason: string }> | undefined;
    const observation = async (rule: string): Promise<LifecycleObservation | { readonly reason: string }> => {
      const observed = spec.operations.filter((operation) => LIFECYCLE_KINDS[operation.id] !== undefined);
      const lacking = observed.map((operation) => idsFor(ids, operation)).find((found) => 'reason' in found);
      if (lacking) return lacking;
      const own = receiver ?? (control ? await startWebhookReceiver(0, '127.0.0.1') : undefined);
      if (!own)
        return {
          reason: `needs a pacu control API (${options.word('controlUrl')}) or a webhook receiver (${options.word('webhook.receiverUrl')} and ${options.word('webhook.secret')})`,
        };
      try {
        return await observeLifecycles({
          spec,
          // Seeded by the run alone: rerunning `rule` with the run's seed remakes the same requests.
          send: (request, operation) =>
            send(request, operation, { rule, label: 'the lifecycle observation', seed: options.seed }),
          token: await tokens.get(),
          ids,
          seed: options.seed,
          nonce: runNonce,
          receiver: own,
          secret: config.webhook?.secret ?? `whsec_${randomBytes(24).toString('base64')}`,
          ...(control ? { control } : {}),
        });
      } finally {
        if (own !== receiver) await own.close();
      }
    };
    return {
      spec,
      profile: options.profile,
      config,
      word: options.word,
      api,
      tokens,
      ids,
      ...(control ? { control } : {}),
      seed: options.seed,
      numRuns: options.numRuns,
      ...(options.path !== undefined ? { path: options.path } : {}),
      runNonce,
      observation: (rule) => {
        observed ??= observation(rule);
        return observed;
      },
      send,
      errorAnswers,
      async close() {
        await receiver?.close();
        await api.close();
      },
    };
  } catch (error) {
    await receiver?.close();
    await api.close();
    throw error;
  }
}
