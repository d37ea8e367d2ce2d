import { Agent, request } from 'undici';
import { webhookHeaders } from '../../spec/index.ts';
import type { DeliveryAttempt, WebhookEventRecord, WebhookReceiver, WebhookRetry } from '../types.ts';
import { newId } from './random.ts';

export interface WebhookDispatcher {
  /** Send an event to every receiver now; returns the event id (the `webhook-id` header). */
  /** With a clientId, receivers that belong to another client do not get the event. */
  emit(type: string, payload: unknown, clientId?: string): string;
  redeliver(eventId: string): boolean;
  attempts(): DeliveryAttempt[];
  events(): WebhookEventRecord[];
  clearHistory(): void;
  /** Resolves when no delivery is in flight or waiting for a retry. */
  idle(): Promise<void>;
  close(): Promise<void>;
}

const MAX_EVENTS = 1000;
const MAX_ATTEMPTS = 10_000;

export function createWebhookDispatcher(
  receivers: () => Iterable<WebhookReceiver>,
  retry: WebhookRetry,
  log: (line: string) => void,
): WebhookDispatcher {
  const agent = new Agent({ connections: 16 });
  const events = new Map<string, WebhookEventRecord>();
  const attempts: DeliveryAttempt[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const inFlight = new Set<Promise<void>>();
  let closed = false;
  let idleWaiters: Array<() => void> = [];

  const settleIdle = (): void => {
    if (timers.size > 0 || inFlight.size > 0) return;
    for (const resolve of idleWaiters) resolve();
    idleWaiters = [];
  };

  const record = (attempt: DeliveryAttempt): DeliveryAttempt => {
    attempts.push(attempt);
    if (attempts.length > MAX_ATTEMPTS) attempts.splice(0, attempts.length - MAX_ATTEMPTS);
    return attempt;
  };

  async function send(
    event: WebhookEventRecord,
    receiver: WebhookReceiver,
    attempt: DeliveryAttempt,
  ): Promise<void> {
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
    } catch (error) {
      attempt.outcome = 'failed';
      attempt.error =
        (error as Error).name === 'TimeoutError'
          ? `no answer within ${retry.timeoutMs} ms`
          : String((error as Error).message);
    }
    attempt.finishedAt = new Date().toISOString();
    if (attempt.outcome === 'failed' && attempt.attempt <= retry.delaysMs.length && !closed) {
      const base = retry.delaysMs[attempt.attempt - 1] ?? 0;
      const delay = Math.max(0, Math.round(base * (1 + retry.jitter * (Math.random() * 2 - 1))));
      attempt.nextAttemptAt = new Date(Date.now() + delay).toISOString();
      const timer = setTimeout(() => {
        timers.delete(timer);
        deliver(event, receiver, attempt.attempt + 1);
        settleIdle();
      }, delay);
      timers.add(timer);
    } else if (attempt.outcome === 'failed') {
      log(`webhook ${event.type} ${event.id} to ${receiver.url} failed after ${attempt.attempt} attempts`);
    }
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
    [...receivers()].filter(
      (receiver) => receiver.clientId === undefined || receiver.clientId === event.clientId,
    );

  const lastAttempt = (eventId: string, receiverId: string): number =>
    attempts.reduce(
      (max, a) => (a.eventId === eventId && a.receiverId === receiverId ? Math.max(max, a.attempt) : max),
      0,
    );

  return {
    emit(type, payload, clientId) {
      const event: WebhookEventRecord = {
        id: newId('msg'),
        type,
        body: JSON.stringify(payload),
        ...(clientId === undefined ? {} : { clientId }),
      };
      events.set(event.id, event);
      if (events.size > MAX_EVENTS) events.delete(events.keys().next().value as string);
      for (const receiver of receiversOf(event)) deliver(event, receiver, 1);
      return event.id;
    },
    redeliver(eventId) {
      const event = events.get(eventId);
      if (!event) return false;
      for (const receiver of receiversOf(event))
        deliver(event, receiver, lastAttempt(eventId, receiver.id) + 1);
      return true;
    },
    attempts: () => attempts.map((attempt) => ({ ...attempt })),
    events: () => [...events.values()],
    clearHistory() {
      events.clear();
      attempts.length = 0;
    },
    idle: () =>
      timers.size === 0 && inFlight.size === 0
        ? Promise.resolve()
        : new Promise<void>((resolve) => idleWaiters.push(resolve)),
    async close() {
      closed = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      await Promise.allSettled([...inFlight]);
      settleIdle();
      await agent.close();
    },
  };
}
