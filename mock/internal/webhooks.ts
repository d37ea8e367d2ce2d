import type { Agent, request as undiciRequest } from 'undici';
import { createRing, retryAfterMs, webhookHeaders } from '../../http/index.ts';
import type { DeliveryAttempt, WebhookEventRecord, WebhookReceiver, WebhookRetry } from '../types.ts';
import type { MockClock } from './clock.ts';
import { newId } from './random.ts';
import type { Maybe } from './store/maybe.ts';
import { MAX_CONNECTIONS_PER_RECEIVER, THROTTLE_STATUSES, WebhookLane } from './webhook-lane.ts';

export interface WebhookDispatcher {
  /**
   * Send an event to every active receiver now; returns the event id (the `webhook-id` header).
   * With a clientId, receivers that belong to another client do not get the event. `payload` is
   * the caller's own copy, never changed after: the event's body is rendered from it when needed.
   */
  emit(type: string, payload: unknown, clientId?: string): Maybe<string>;
  /** Send an event again now; a retry already scheduled for it is cancelled. */
  redeliver(eventId: string): Maybe<boolean>;
  attempts(): Maybe<DeliveryAttempt[]>;
  events(): Maybe<WebhookEventRecord[]>;
  clearHistory(): Maybe<void>;
  /** Resolves when no delivery is in flight (nor, on a real clock, waiting for a retry). */
  idle(): Promise<void>;
  close(): Promise<void>;
}

export interface DispatcherDeps {
  /** The receivers as the store has them now (the memory and file stores answer at once). */
  receivers(): readonly WebhookReceiver[];
  putReceiver(receiver: WebhookReceiver): void;
  clock: MockClock;
  retry: WebhookRetry;
  log(line: string): void;
}

const MAX_EVENTS = 1000;
const MAX_ATTEMPTS = 10_000;
/** A receiver's Retry-After is honoured up to a day. */
const MAX_RETRY_AFTER_MS = 24 * 3_600_000;

/**
 * An event as kept. Its body is written when first sent or read: a mock with no receiver keeps its
 * events unrendered. A class, so each settlement makes one plain object (a literal with a getter
 * was built by the runtime, slowly, every time).
 */
class KeptEvent implements WebhookEventRecord {
  private text: string | undefined;
  constructor(
    readonly id: string,
    readonly type: string,
    private readonly payload: unknown,
    readonly clientId: string | undefined,
  ) {}

  get body(): string {
    this.text ??= JSON.stringify(this.payload);
    return this.text;
  }

  /** The record the control API shows: its fields as data. */
  shown(): WebhookEventRecord {
    const { id, type, body, clientId } = this;
    return clientId === undefined ? { id, type, body } : { id, type, body, clientId };
  }
}

interface ScheduledRetry {
  cancelled: boolean;
  attempt: DeliveryAttempt;
}

export function createWebhookDispatcher({
  receivers,
  putReceiver,
  clock,
  retry,
  log,
}: DispatcherDeps): WebhookDispatcher {
  // undici loads with the first delivery, not with the mock: a fifth of a second of every start.
  let client: Promise<{ agent: Agent; request: typeof undiciRequest }> | undefined;
  const http = () =>
    (client ??= import('undici').then(({ Agent, request }) => ({
      agent: new Agent({ connections: MAX_CONNECTIONS_PER_RECEIVER }),
      request,
    })));
  /** The last events, in the order they came: the oldest is forgotten in place, nothing rehashed. */
  let kept = createRing<KeptEvent>(MAX_EVENTS);
  const attempts: DeliveryAttempt[] = [];
  const lanes = new Map<string, WebhookLane>();
  /** `eventId receiverId` → the retry waiting on the mock clock. */
  const retries = new Map<string, ScheduledRetry>();
  const inFlight = new Set<Promise<void>>();
  let closed = false;
  let idleWaiters: Array<() => void> = [];

  const isIdle = (): boolean => inFlight.size === 0 && (clock.mode === 'manual' || retries.size === 0);
  const settleIdle = (): void => {
    if (!isIdle()) return;
    for (const resolve of idleWaiters) resolve();
    idleWaiters = [];
  };
  const laneOf = (receiverId: string): WebhookLane => {
    let lane = lanes.get(receiverId);
    if (!lane) {
      lane = new WebhookLane();
      lanes.set(receiverId, lane);
    }
    return lane;
  };
  const active = (): WebhookReceiver[] => receivers().filter((receiver) => !receiver.disabledAt);

  const record = (attempt: DeliveryAttempt): DeliveryAttempt => {
    attempts.push(attempt);
    if (attempts.length > MAX_ATTEMPTS) attempts.splice(0, attempts.length - MAX_ATTEMPTS);
    return attempt;
  };

  /** One HTTP exchange, timed from the moment it may start (a free connection), not before. */
  async function exchange(event: WebhookEventRecord, receiver: WebhookReceiver, attempt: DeliveryAttempt) {
    const { agent, request } = await http();
    const lane = laneOf(receiver.id);
    await lane.acquire();
    attempt.startedAt = new Date().toISOString();
    // The header carries wall time (receivers compare it with their own clock), not the mock clock.
    const timestamp = Math.floor(Date.now() / 1000);
    try {
      const response = await request(receiver.url, {
        method: 'POST',
        dispatcher: agent,
        headers: {
          'content-type': 'application/json',
          'user-agent': 'pacu-mock-webhooks',
          ...webhookHeaders(receiver.secret, event.id, timestamp, event.body),
        },
        body: event.body,
        signal: AbortSignal.timeout(retry.timeoutMs),
      });
      await response.body.dump();
      attempt.status = response.statusCode;
      attempt.outcome = response.statusCode >= 200 && response.statusCode < 300 ? 'delivered' : 'failed';
      if (attempt.outcome === 'delivered') lane.recover();
      if (THROTTLE_STATUSES.has(response.statusCode)) lane.throttle();
      return retryAfterMs(response.headers['retry-after']);
    } catch (error) {
      attempt.outcome = 'failed';
      attempt.error =
        (error as Error).name === 'TimeoutError'
          ? `no answer within ${retry.timeoutMs} ms`
          : String((error as Error).message);
      return undefined;
    } finally {
      attempt.finishedAt = new Date().toISOString();
      lane.release();
    }
  }

  function scheduleRetry(
    event: WebhookEventRecord,
    receiver: WebhookReceiver,
    attempt: DeliveryAttempt,
    after?: number,
  ) {
    const base = retry.delaysMs[attempt.attempt - 1] ?? 0;
    const jittered = Math.max(0, Math.round(base * (1 + retry.jitter * (Math.random() * 2 - 1))));
    const delay = Math.max(jittered, Math.min(after ?? 0, MAX_RETRY_AFTER_MS));
    const at = clock.now() + delay;
    attempt.nextAttemptAt = new Date(at).toISOString();
    const key = `${event.id} ${receiver.id}`;
    const scheduled: ScheduledRetry = { cancelled: false, attempt };
    retries.set(key, scheduled);
    clock.schedule(at, () => {
      if (scheduled.cancelled) return;
      retries.delete(key);
      const current = receivers().find((known) => known.id === receiver.id);
      if (current && !current.disabledAt) deliver(event, current, attempt.attempt + 1);
      settleIdle();
    });
  }

  async function send(event: WebhookEventRecord, receiver: WebhookReceiver, attempt: DeliveryAttempt) {
    const after = await exchange(event, receiver, attempt);
    if (attempt.outcome === 'delivered' || closed) return;
    if (attempt.status === 410) {
      // Standard Webhooks: the receiver wants no more of this sender; disable it.
      attempt.error = 'the receiver answered 410 Gone: it is disabled, nothing more is sent to it';
      putReceiver({ ...receiver, disabledAt: new Date(clock.now()).toISOString() });
      log(`webhook receiver ${receiver.id} (${receiver.url}) answered 410 Gone and is disabled`);
    } else if (attempt.attempt <= retry.delaysMs.length) scheduleRetry(event, receiver, attempt, after);
    else log(`webhook ${event.type} ${event.id} to ${receiver.url} failed after ${attempt.attempt} attempts`);
  }

  function deliver(event: WebhookEventRecord, receiver: WebhookReceiver, number: number): void {
    if (closed) return;
    const attempt = record({
      eventId: event.id,
      type: event.type,
      receiverId: receiver.id,
      url: receiver.url,
      attempt: number,
      outcome: 'pending',
      startedAt: new Date().toISOString(),
    });
    const running = send(event, receiver, attempt).finally(() => {
      inFlight.delete(running);
      settleIdle();
    });
    inFlight.add(running);
  }

  // A receiver that belongs to a client gets that client's events only (parallel CI jobs).
  const receiversOf = (event: WebhookEventRecord): WebhookReceiver[] =>
    active().filter((receiver) => receiver.clientId === undefined || receiver.clientId === event.clientId);

  const cancelRetries = (match: (key: string) => boolean): void => {
    for (const [key, scheduled] of retries) {
      if (!match(key)) continue;
      scheduled.cancelled = true;
      delete scheduled.attempt.nextAttemptAt;
      retries.delete(key);
    }
  };

  const lastAttempt = (eventId: string, receiverId: string): number =>
    attempts.reduce(
      (max, a) => (a.eventId === eventId && a.receiverId === receiverId ? Math.max(max, a.attempt) : max),
      0,
    );

  return {
    emit(type, payload, clientId) {
      const event = new KeptEvent(newId('msg'), type, payload, clientId);
      kept.push(event);
      for (const receiver of receiversOf(event)) deliver(event, receiver, 1);
      return event.id;
    },
    redeliver(eventId) {
      // A thousand ids at most, looked through when a user asks: the emits pay nothing for it.
      const event = kept.items().find((known) => known.id === eventId);
      if (!event) return false;
      for (const receiver of receiversOf(event)) {
        cancelRetries((key) => key === `${eventId} ${receiver.id}`);
        deliver(event, receiver, lastAttempt(eventId, receiver.id) + 1);
      }
      return true;
    },
    attempts: () => attempts.map((attempt) => ({ ...attempt })),
    events: () => kept.items().map((event) => event.shown()),
    clearHistory() {
      cancelRetries(() => true);
      kept = createRing<KeptEvent>(MAX_EVENTS);
      attempts.length = 0;
      settleIdle();
    },
    idle: () => (isIdle() ? Promise.resolve() : new Promise<void>((resolve) => idleWaiters.push(resolve))),
    async close() {
      closed = true;
      cancelRetries(() => true);
      await Promise.allSettled([...inFlight]);
      settleIdle();
      if (client) await (await client).agent.close();
    },
  };
}
