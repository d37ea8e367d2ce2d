import { createRedactor, webhookSecretProblem } from '../../http/index.ts';
import { ConfigError, loadSpec, type Spec, TargetUnreachableError } from '../../spec/index.ts';
import { buildReport, type ResultDraft } from '../report/build-report.ts';
import type { Report, WebhookEventType } from '../report/report.ts';
import { createApiClient } from '../target/api-client.ts';
import type { ApiRequest, ApiResponse } from '../target/api-request.ts';
import { type EventToSend, WEBHOOK_CASES, type WebhookCase, type WebhookSend } from './webhook-cases.ts';

/** Options of {@link checkWebhookReceiver}. */
export interface WebhookCheckOptions {
  /** The merchant's receiver, e.g. `http://127.0.0.1:3000/webhooks/pacu`. */
  readonly receiver: string;
  /** The secret the receiver verifies with: `whsec_<base64>` (or a plain secret, keyed as the mock keys it). */
  readonly secret: string;
  /** Time the receiver has to answer each message. @default 5000 (the mock's delivery timeout) */
  readonly timeoutMs?: number;
  /** Only these event types. @default every webhook of the spec */
  readonly events?: readonly string[];
  /** @default the spec pacu ships */
  readonly spec?: Spec;
}

export const WEBHOOK_CHECK_DEFAULTS = { timeoutMs: 5000 } as const;

function checkSecret(secret: unknown): void {
  const problem = webhookSecretProblem(secret);
  if (problem) throw new ConfigError(`pacu: --secret ${problem}`);
}

function checkReceiverUrl(receiver: string): void {
  if (!URL.canParse(receiver) || !/^https?:$/.test(new URL(receiver).protocol))
    throw new ConfigError(`pacu: --receiver ${receiver} is not an http(s) URL`);
}

/** The spec's example of each webhook, with the event timestamp set to now. */
function eventsToSend(
  spec: Spec,
  only: readonly string[] | undefined,
): Array<{ type: WebhookEventType; body: string }> {
  const known = spec.webhooks.map((webhook) => webhook.type);
  const unknown = (only ?? []).filter((type) => !known.includes(type));
  if (unknown.length > 0)
    throw new ConfigError(
      `pacu: unknown event ${unknown.join(', ')} (the spec's events: ${known.join(', ')})`,
    );
  return spec.webhooks
    .filter((webhook) => !only || only.length === 0 || only.includes(webhook.type))
    .map((webhook) => {
      const example = Object.values(webhook.examples)[0] as Record<string, unknown> | undefined;
      if (!example) throw new ConfigError(`pacu: the spec has no example of the ${webhook.type} webhook`);
      const body = JSON.stringify({
        ...example,
        timestamp: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
      });
      return { type: webhook.type as WebhookEventType, body };
    });
}

/** Why an exchange got no answer, in a few words. */
function noAnswer(cause: unknown, timeoutMs: number): string {
  const name = (cause as Error | undefined)?.name ?? '';
  if (/Timeout/.test(name)) return `no answer within ${timeoutMs} ms`;
  const code = (cause as { code?: string } | undefined)?.code;
  if (code === 'ECONNREFUSED') return 'connection refused';
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET')
    return 'the connection was closed without an answer';
  return code ? code.toLowerCase() : String((cause as Error | undefined)?.message ?? cause);
}

const acknowledged = (status: number): boolean => status >= 200 && status < 300;

interface Exchange {
  readonly send: WebhookSend;
  readonly response?: ApiResponse;
  /** Why no answer came (timeout, reset). */
  readonly error?: string;
}

/** Why the answers break the case, or undefined when they meet it. */
function problem(
  check: WebhookCase,
  exchanges: readonly Exchange[],
): { reason: string; at: Exchange } | undefined {
  for (const [index, exchange] of exchanges.entries()) {
    const which = exchanges.length > 1 ? ` (message ${index + 1} of ${exchanges.length})` : '';
    if (!exchange.response) return { reason: `no answer${which}: ${exchange.error}`, at: exchange };
    const status = exchange.response.status;
    if (check.expect === 'acknowledge' && !acknowledged(status))
      return { reason: `answered HTTP ${status}${which}, expected a 2xx acknowledgement`, at: exchange };
    if (check.expect === 'refuse' && acknowledged(status))
      return {
        reason: `answered HTTP ${status}${which}: the receiver acknowledged a message it must refuse`,
        at: exchange,
      };
  }
  return undefined;
}

/**
 * Judge a merchant's webhook receiver as a careful sender would: each of the spec's events, signed
 * per Standard Webhooks, must be acknowledged, and unsigned, wrongly signed, wrong-secret, stale and
 * far-future copies refused; redeliveries and secret rotation must work. Returns a report like
 * `pacu check`'s; throws TargetUnreachableError when the receiver does not answer at all.
 *
 * @example
 * const report = await checkWebhookReceiver({ receiver: 'http://127.0.0.1:3000/hooks', secret });
 * if (report.summary.failed > 0) console.log(report.rules.filter((rule) => rule.failure));
 */
export async function checkWebhookReceiver(options: WebhookCheckOptions): Promise<Report> {
  checkReceiverUrl(options.receiver);
  checkSecret(options.secret);
  const spec = options.spec ?? (await loadSpec());
  const events = eventsToSend(spec, options.events);
  const timeoutMs = options.timeoutMs ?? WEBHOOK_CHECK_DEFAULTS.timeoutMs;
  const started = new Date();
  const url = new URL(options.receiver);
  const origin = url.origin;
  const target = `${url.pathname}${url.search}`;
  const api = createApiClient({ baseUrl: origin, timeoutMs, connections: 1 });
  let first = true;
  const deliver = async (send: WebhookSend): Promise<Exchange> => {
    const request: ApiRequest = { method: 'POST', path: target, headers: send.headers, body: send.body };
    try {
      return { send, response: await api.send(request) };
    } catch (error) {
      if (!(error instanceof TargetUnreachableError)) throw error;
      const why = noAnswer(error.cause, timeoutMs);
      // Nothing answered the very first message: the URL is wrong or the receiver is down (exit 2).
      if (first)
        throw new TargetUnreachableError(
          `pacu: cannot reach the webhook receiver ${options.receiver}: ${why}. Is the receiver running at that URL?`,
          { cause: error },
        );
      return { send, error: why };
    } finally {
      first = false;
    }
  };
  const rules: ResultDraft[] = [];
  try {
    for (const event of events) {
      let acknowledges = true;
      for (const check of WEBHOOK_CASES) {
        const base = {
          id: check.id,
          category: check.category,
          operation: event.type,
          profile: 'strict',
          title: check.title,
        } as const;
        if (check.expect === 'refuse' && !acknowledges) {
          rules.push({
            ...base,
            status: 'skipped',
            runs: 0,
            durationMs: 0,
            skipReason: `the receiver did not acknowledge a correctly signed ${event.type} event, so a refusal proves nothing`,
          });
          continue;
        }
        const caseStarted = performance.now();
        const toSend: EventToSend = {
          body: event.body,
          secret: options.secret,
          nowSeconds: Math.floor(Date.now() / 1000),
        };
        const exchanges: Exchange[] = [];
        for (const send of check.sends(toSend)) exchanges.push(await deliver(send));
        const found = problem(check, exchanges);
        if (check.id === 'webhooks.signed-accepted') acknowledges = found === undefined;
        const durationMs = performance.now() - caseStarted;
        if (!found) {
          rules.push({ ...base, status: 'passed', runs: exchanges.length, durationMs });
          continue;
        }
        const shown: ApiRequest = {
          method: 'POST',
          path: target,
          headers: found.at.send.shown,
          body: found.at.send.body,
        };
        const response = found.at.response;
        rules.push({
          ...base,
          status: 'failed',
          runs: exchanges.length,
          durationMs,
          failure: {
            id: `${check.id}/${event.type}`,
            reason: `${check.title}: ${found.reason}`,
            request: shown,
            ...(response ? { response: { ...response, text: response.text.slice(0, 2000) } } : {}),
          },
        });
      }
    }
  } finally {
    await api.close();
  }
  // Reports show signatures by what made them; the secret itself is redacted wherever it shows up.
  const key = options.secret.startsWith('whsec_') ? [options.secret.slice(6)] : [];
  return buildReport({
    command: 'webhooks check',
    target: options.receiver,
    baseUrl: origin,
    seed: 0,
    profile: 'strict',
    startedAt: started,
    results: rules,
    redactor: createRedactor({ others: [options.secret, ...key] }),
  });
}
