import { randomBytes } from 'node:crypto';
import { bearerToken, type Redactor } from '../../http/index.ts';
import {
  ConfigError,
  type Profile,
  pendingOnce,
  type Spec,
  TargetUnreachableError,
} from '../../spec/index.ts';
import type { EarlyRefusal, ErrorAnswerProblem, ReceivingCase, Rule } from '../rules/rule.ts';
import { type ApiClient, createApiClient } from '../target/api-client.ts';
import type { ApiRequest, ApiResponse } from '../target/api-request.ts';
import { assertTargetReachable } from '../target/assert-reachable.ts';
import { type ControlApiClient, createControlClient } from '../target/control-client.ts';
import { InconclusiveExchange } from '../target/inconclusive.ts';
import { createPacer, PACER_DEFAULTS, type Pacer } from '../target/pacer.ts';
import { idsFor, type ResolvedIds, resolveIds } from '../target/resolve-ids.ts';
import type { TargetConfig } from '../target/target-config.ts';
import { createTokenSource, lifeLeftMs, TokenRefused, type TokenSource } from '../target/token-source.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../webhooks/webhook-receiver.ts';
import { type BoundLedger, createBoundLedger } from './bound-ledger.ts';
import { LIFECYCLE_KINDS, type LifecycleObservation, observeLifecycles } from './lifecycle-observation.ts';
import type { Wording } from './setting.ts';

/** What an observing rule made of the answers of one operation, judged as they arrive. */
export interface ObservedAnswers {
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
   * Send a request of the case `receivedIn`: a held token is kept fresh and a 401 on it retried once
   * with a new one (an expired cached token is pacu's fault, never the target's); the observing rules
   * judge every answer. With `share` (the default) a request sent before in this run is not sent again.
   */
  send(
    request: ApiRequest,
    operation: string,
    receivedIn: ReceivingCase,
    share?: boolean,
  ): Promise<ApiResponse>;
  /** What each observing rule made of the answers, by rule id then operation. */
  readonly observed: Map<string, Map<string, ObservedAnswers>>;
  /** The bounds the run learned of fields the description bounds nowhere. */
  readonly bounds: BoundLedger;
  /** Held tokens refused with 401 before their stated life was out, while a successor was let in. */
  readonly earlyRefusals: readonly EarlyRefusal[];
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
  /** The selected rules that judge every answer (`Rule.observe`). @default none */
  readonly observers?: readonly Rule[];
}

/** Where pacu listens for the target's deliveries: the host and port of --webhook-receiver-url. */
function receiverAddress(url: string): { host: string; port: number } {
  const parsed = new URL(url);
  return {
    host: parsed.hostname.replace(/^\[|\]$/g, ''),
    port: Number(parsed.port || (parsed.protocol === 'https:' ? 443 : 80)),
  };
}

const withToken = (request: ApiRequest, token: string): ApiRequest => ({
  ...request,
  headers: { ...request.headers, authorization: `Bearer ${token}` },
});

/** Requests that are the same exchange: a held token stands for its scopes, whichever token it is now. */
function exchangeKey(request: ApiRequest, tokens: TokenSource): string {
  const { authorization, ...headers } = request.headers;
  const held = bearerToken(authorization);
  const scopes = held === undefined ? undefined : tokens.owns(held);
  const who = scopes ? `held:${[...scopes].sort().join(',')}` : (authorization ?? '');
  return JSON.stringify([request.method, request.path, headers, who, request.body ?? null]);
}

/** Refusals kept as evidence: the first few are enough. */
const KEPT_REFUSALS = 10;

function createSend(
  spec: Spec<string>,
  api: ApiClient,
  tokens: TokenSource,
  observers: readonly Rule[],
  observed: Map<string, Map<string, ObservedAnswers>>,
  early: EarlyRefusal[],
): RunContext['send'] {
  const shared = new Map<string, Promise<ApiResponse>>();

  /** Every observing rule judges the answer once, remembering the case so its failure's replay reruns it. */
  const observe = (operation: string, sent: ApiRequest, response: ApiResponse, receivedIn: ReceivingCase) => {
    for (const rule of observers) {
      if (!rule.appliesTo(spec.operation(operation))) continue;
      const problem = rule.observe?.(response, { spec, operation });
      if (problem === 'not-judged') continue;
      const byOperation = observed.get(rule.id) ?? new Map<string, ObservedAnswers>();
      observed.set(rule.id, byOperation);
      const seen = byOperation.get(operation) ?? { judged: 0, problems: [] };
      byOperation.set(operation, seen);
      seen.judged += 1;
      // One problem per status: rules run side by side, so the first few answers all come from one of them.
      if (
        problem &&
        seen.problems.length < 10 &&
        !seen.problems.some((known) => known.response?.status === response.status)
      )
        seen.problems.push({
          ok: false,
          reason: `an HTTP ${response.status} answer (received by ${receivedIn.label}): ${problem}`,
          request: sent,
          response,
          receivedIn,
        });
    }
  };

  const exchange = async (request: ApiRequest, operation: string, receivedIn: ReceivingCase) => {
    const held = bearerToken(request.headers.authorization);
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
    // A token past half its stated life when its refusal came may have aged on the way: a provider that
    // says so with another status than 401 (403 is as legal) is asked once more with a new token.
    if (response.status >= 400 && response.status < 500 && response.status !== 401 && scopes) {
      const token = bearerToken(sent.headers.authorization) ?? '';
      const issued = tokens.issued().find((held) => held.token === token);
      if (issued && performance.now() - issued.issuedAt >= issued.lifeMs / 2) {
        await tokens.renew(token);
        response = await api.send(request, atTurn ? { atTurn } : {});
      }
    }
    if (response.status === 401 && scopes) {
      const refused = { request: sent, response, at: performance.now() };
      const token = bearerToken(sent.headers.authorization) ?? '';
      await tokens.renew(token);
      response = await api.send(request, atTurn ? { atTurn } : {});
      // Its successor was let in: the first was refused for its age, not its scope or the body.
      const issued = tokens.issued().find((held) => held.token === token);
      const ageMs = issued ? refused.at - issued.issuedAt : Infinity;
      if (issued && response.status !== 401 && ageMs < issued.lifeMs - lifeLeftMs(issued.lifeMs))
        if (early.length < KEPT_REFUSALS)
          early.push({ ageMs, lifeMs: issued.lifeMs, request: refused.request, response: refused.response });
    }
    observe(operation, sent, response, receivedIn);
    return response;
  };

  return (request, operation, receivedIn, share = true) => {
    if (!share) return exchange(request, operation, receivedIn);
    // The same request in the same case of the same seed: two rules drawing alike send it once. A
    // write repeated in other cases is sent again (a second token, a second payment may differ).
    const key = `${receivedIn.path ?? ''} ${exchangeKey(request, tokens)}`;
    // A lost answer is not an answer: the next rule to ask sends it itself.
    return pendingOnce(shared, key, () => exchange(request, operation, receivedIn));
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
    const observed = new Map<string, Map<string, ObservedAnswers>>();
    const earlyRefusals: EarlyRefusal[] = [];
    const send = createSend(spec, api, tokens, options.observers ?? [], observed, earlyRefusals);
    const runNonce = randomBytes(4).toString('hex');
    let lifecycle: Promise<LifecycleObservation | { readonly reason: string }> | undefined;
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
        lifecycle ??= observation(rule);
        return lifecycle;
      },
      send,
      observed,
      bounds: createBoundLedger(),
      earlyRefusals,
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
