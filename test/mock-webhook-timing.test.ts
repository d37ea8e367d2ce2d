// Webhook timeouts cover the exchange only; retries run on the mock's
// clock, follow Standard Webhooks' answers, and a manual redelivery replaces the scheduled retry.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { type RunningMock, startMock } from '../mock/index.ts';
import { postJson, tokenFor, transferBody } from './mock-helpers.ts';

const SECRET = `whsec_${Buffer.from('pacu webhook timing key 01234567').toString('base64')}`;

interface Receiver {
  url: string;
  server: Server;
  received: Array<{ id: string; at: number }>;
  maxConcurrent: () => number;
}

/** A receiver that answers each delivery with `answer` (status, headers, delay in ms). */
async function receiver(
  answer: (index: number) => { status: number; headers?: Record<string, string>; delayMs?: number },
): Promise<Receiver> {
  const received: Array<{ id: string; at: number }> = [];
  let active = 0;
  let most = 0;
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    active++;
    most = Math.max(most, active);
    request.resume();
    request.on('end', () => {
      const { status, headers, delayMs } = answer(received.length);
      received.push({ id: String(request.headers['webhook-id']), at: Date.now() });
      setTimeout(() => {
        active--;
        response.writeHead(status, headers);
        response.end();
      }, delayMs ?? 0);
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  return { url, server, received, maxConcurrent: () => most };
}

let mock: RunningMock | undefined;
let servers: Server[] = [];
afterEach(async () => {
  await mock?.close();
  mock = undefined;
  for (const server of servers) server.closeAllConnections();
  for (const server of servers) server.close();
  servers = [];
});

async function startWith(
  hooks: Receiver,
  retry: { delaysMs?: number[]; timeoutMs?: number; jitter?: number },
) {
  servers.push(hooks.server);
  mock = await startMock({
    clock: 'manual',
    webhooks: [{ url: hooks.url, secret: SECRET }],
    webhookRetry: { jitter: 0, ...retry },
    log: () => {},
  });
  return mock;
}

/** `count` WIRE transfers, settled by advancing 10 s: one event each, all emitted at once. */
async function settleTransfers(running: RunningMock, count: number, amount = 10): Promise<void> {
  const token = await tokenFor(running);
  for (let index = 0; index < count; index++)
    await postJson(
      `${running.url}/payments/usd/direct`,
      token,
      transferBody(running.seeded.merchantAccountId, { amount }),
    );
  await running.control.advanceClock(10);
}

describe('finding 12: the delivery timeout covers the exchange only', () => {
  it('records 40 deliveries to a slow receiver (16 connections) as delivered, once each', async () => {
    const hooks = await receiver(() => ({ status: 200, delayMs: 250 }));
    const running = await startWith(hooks, { timeoutMs: 600 });
    await settleTransfers(running, 40);
    await running.control.webhooksIdle();
    const attempts = await running.control.attempts();
    expect(attempts.filter((a) => a.outcome !== 'delivered')).toEqual([]);
    expect(attempts).toHaveLength(40);
    expect(hooks.received).toHaveLength(40);
  });
});

describe('finding 13: retries on the mock clock', () => {
  it('runs retries only when the manual clock reaches them, on the schedule given', async () => {
    const hooks = await receiver((index) => ({ status: index < 2 ? 500 : 200 }));
    const running = await startWith(hooks, { delaysMs: [60_000, 3_600_000] });
    await settleTransfers(running, 1);
    await running.control.webhooksIdle();
    expect(hooks.received).toHaveLength(1);
    await new Promise((resolve) => setTimeout(resolve, 300)); // wall time passes: nothing happens
    expect(hooks.received).toHaveLength(1);
    await running.control.advanceClock(59);
    await running.control.webhooksIdle();
    expect(hooks.received).toHaveLength(1);
    await running.control.advanceClock(1);
    await running.control.webhooksIdle();
    expect(hooks.received).toHaveLength(2);
    await running.control.advanceClock(3600);
    await running.control.webhooksIdle();
    expect(hooks.received).toHaveLength(3);
    expect((await running.control.attempts()).map((a) => a.outcome)).toEqual([
      'failed',
      'failed',
      'delivered',
    ]);
  });

  it('cancels the scheduled retry when the event is redelivered by hand', async () => {
    const hooks = await receiver((index) => ({ status: index === 0 ? 500 : 200 }));
    const running = await startWith(hooks, { delaysMs: [60_000] });
    await settleTransfers(running, 1);
    await running.control.webhooksIdle();
    const [first] = await running.control.attempts();
    expect(first?.nextAttemptAt).toBeDefined();
    expect(await running.control.redeliver(first?.eventId ?? '')).toBe(true);
    await running.control.webhooksIdle();
    await running.control.advanceClock(120);
    await running.control.webhooksIdle();
    expect(hooks.received).toHaveLength(2);
    expect((await running.control.attempts()).map((a) => [a.attempt, a.outcome])).toEqual([
      [1, 'failed'],
      [2, 'delivered'],
    ]);
  });

  it('disables a receiver that answers 410 Gone: no retry, no later event', async () => {
    const hooks = await receiver(() => ({ status: 410 }));
    const running = await startWith(hooks, { delaysMs: [1000] });
    await settleTransfers(running, 1);
    await running.control.webhooksIdle();
    await running.control.advanceClock(60);
    await settleTransfers(running, 1);
    await running.control.webhooksIdle();
    expect(hooks.received).toHaveLength(1);
    expect((await running.control.receivers())[0]?.disabledAt).toBeDefined();
  });

  it('waits at least Retry-After (seconds) before the next attempt', async () => {
    const hooks = await receiver((index) =>
      index === 0 ? { status: 503, headers: { 'retry-after': '120' } } : { status: 200 },
    );
    const running = await startWith(hooks, { delaysMs: [1000] });
    await settleTransfers(running, 1);
    await running.control.webhooksIdle();
    await running.control.advanceClock(60);
    await running.control.webhooksIdle();
    expect(hooks.received).toHaveLength(1);
    await running.control.advanceClock(60);
    await running.control.webhooksIdle();
    expect(hooks.received).toHaveLength(2);
  });

  it.each([429, 502, 504])(
    'throttles a receiver that answers %i: fewer deliveries at once',
    async (status) => {
      const hooks = await receiver((index) => (index === 0 ? { status } : { status: 200, delayMs: 100 }));
      const running = await startWith(hooks, { delaysMs: [3_600_000] });
      await settleTransfers(running, 1);
      await running.control.webhooksIdle();
      await settleTransfers(running, 12);
      await running.control.webhooksIdle();
      expect(hooks.received).toHaveLength(13);
      expect(hooks.maxConcurrent()).toBeLessThanOrEqual(8);
    },
  );

  it('signs with wall-clock timestamps even when the mock clock is a day ahead', async () => {
    const seen: string[] = [];
    const hooks = await receiver(() => ({ status: 200 }));
    hooks.server.prependListener('request', (request: IncomingMessage) => {
      seen.push(String(request.headers['webhook-timestamp']));
    });
    const running = await startWith(hooks, {});
    await running.control.advanceClock(86_400);
    await settleTransfers(running, 1);
    await running.control.webhooksIdle();
    expect(Math.abs(Number(seen[0]) - Date.now() / 1000)).toBeLessThan(60);
  });
});
