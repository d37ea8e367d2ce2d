import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { type RunningMock, startMock } from '../mock/index.ts';
import { compileSchema, loadSpec } from '../spec/index.ts';
import { call, getJson, postJson, tokenFor, transferBody } from './mock-helpers.ts';

const spec = await loadSpec();
const SECRET = `whsec_${Buffer.from('pacu test webhook key 0123456789').toString('base64')}`;

interface Delivery {
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/**
 * Verification written from the Standard Webhooks text, not from the mock's code: the key is the
 * base64 after `whsec_`; the signed content is `id.timestamp.body`; the header holds one or more
 * space-separated `v1,<base64 HMAC-SHA256>`; the timestamp must be within five minutes.
 */
function verifyStandardWebhook(secret: string, delivery: Delivery): boolean {
  const id = String(delivery.headers['webhook-id']);
  const timestamp = String(delivery.headers['webhook-timestamp']);
  if (Math.abs(Date.now() / 1000 - Number(timestamp)) > 300) return false;
  const key = Buffer.from(secret.split('_')[1] ?? '', 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${delivery.body}`).digest();
  return String(delivery.headers['webhook-signature'])
    .split(' ')
    .some((part) => {
      const [version, signature] = part.split(',');
      const given = Buffer.from(signature ?? '', 'base64');
      return version === 'v1' && given.length === expected.length && timingSafeEqual(given, expected);
    });
}

/** A receiver that answers the given statuses in turn (then 200), recording every delivery. */
async function receiver(
  statuses: number[],
): Promise<{ url: string; deliveries: Delivery[]; server: Server }> {
  const deliveries: Delivery[] = [];
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      deliveries.push({ headers: request.headers, body });
      response.statusCode = statuses.shift() ?? 200;
      response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, deliveries, server };
}

let mock: RunningMock | undefined;
let servers: Server[] = [];
afterEach(async () => {
  await mock?.close();
  for (const server of servers) server.close();
  servers = [];
});

describe('webhooks', () => {
  it('retries a receiver that fails twice, delivering three times with valid signatures', async () => {
    const hooks = await receiver([500, 503]);
    servers.push(hooks.server);
    mock = await startMock({
      clock: 'manual',
      webhooks: [{ url: hooks.url, secret: SECRET }],
      webhookRetry: { delaysMs: [20, 20, 20], jitter: 0.5 },
    });
    const token = await tokenFor(mock);
    const created = await postJson(
      `${mock.url}/payments/usd/direct`,
      token,
      transferBody(mock.seeded.merchantAccountId, { amount: 13.13, transfer_type: 'WIRE' }),
    );
    mock.control.advanceClock(5);
    await mock.control.webhooksIdle();
    // Retries wait on the mock's clock: each one runs when the clock reaches it.
    for (let step = 0; step < 2; step++) {
      mock.control.advanceClock(1);
      await mock.control.webhooksIdle();
    }

    expect(hooks.deliveries).toHaveLength(3);
    for (const delivery of hooks.deliveries) expect(verifyStandardWebhook(SECRET, delivery)).toBe(true);
    expect(
      verifyStandardWebhook(
        `whsec_${Buffer.from('another key').toString('base64')}`,
        hooks.deliveries[0] as Delivery,
      ),
    ).toBe(false);
    expect(new Set(hooks.deliveries.map((d) => d.headers['webhook-id'])).size).toBe(1);
    const event = JSON.parse(hooks.deliveries[2]?.body ?? '{}');
    expect(event).toMatchObject({
      type: 'usd_transfer.failed',
      data: { transaction_id: created.body.data.transaction_id, transaction_status: 'failed' },
    });
    const schema = spec.webhooks.find((hook) => hook.type === 'usd_transfer.failed')?.schema ?? {};
    expect(compileSchema(schema)(event)).toEqual([]);

    const attempts = (await call(`${mock.origin}/__pacu/webhooks/attempts`)).body;
    expect(
      attempts.map((a: { attempt: number; status: number; outcome: string }) => [
        a.attempt,
        a.status,
        a.outcome,
      ]),
    ).toEqual([
      [1, 500, 'failed'],
      [2, 503, 'failed'],
      [3, 200, 'delivered'],
    ]);

    const redeliver = await call(`${mock.origin}/__pacu/webhooks/events/${attempts[0].eventId}/redeliver`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
    });
    expect(redeliver.status).toBe(200);
    await mock.control.webhooksIdle();
    expect(hooks.deliveries).toHaveLength(4);
    expect((await mock.control.attempts()).at(-1)).toMatchObject({ attempt: 4, outcome: 'delivered' });
  });

  it('walks a transfer through a scripted lifecycle on a manual clock, one event per transition', async () => {
    const hooks = await receiver([]);
    servers.push(hooks.server);
    mock = await startMock({
      clock: 'manual',
      scenario: {
        rules: [
          {
            match: { reference: 'RETURNED-.*' },
            steps: [
              { after: 30, status: 'successful' },
              { after: 90, status: 'failed' },
            ],
          },
        ],
      },
    });
    const added = await call(`${mock.origin}/__pacu/webhooks/receivers`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ url: hooks.url, secret: SECRET }),
    });
    expect(added.body.id).toMatch(/^rcv_/);
    const token = await tokenFor(mock);
    const transfer = await postJson(
      `${mock.url}/payments/usd/direct`,
      token,
      transferBody(mock.seeded.merchantAccountId, { reference: 'RETURNED-1' }),
    );
    const id = transfer.body.data.transaction_id;
    const status = async (): Promise<string> => {
      const dump = (await call(`${mock?.origin}/__pacu/state`)).body;
      return dump.transfers.find(
        (t: { record: { transaction_id: string } }) => t.record.transaction_id === id,
      ).record.transaction_status;
    };
    const advance = (seconds: number) =>
      call(`${mock?.origin}/__pacu/clock/advance`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ seconds }),
      });

    expect(await status()).toBe('processing');
    await advance(29);
    expect(await status()).toBe('processing');
    await advance(1);
    expect(await status()).toBe('successful');
    await advance(60);
    expect(await status()).toBe('failed');
    await mock.control.webhooksIdle();
    expect(hooks.deliveries.map((d) => JSON.parse(d.body).type)).toEqual([
      'usd_transfer.successful',
      'usd_transfer.failed',
    ]);
    expect(JSON.parse(hooks.deliveries[1]?.body ?? '{}').timestamp).toBe(
      new Date(Date.parse(transfer.body.data.transaction_date) + 90_000).toISOString().replace('.000Z', 'Z'),
    );
  });

  it('sends the p2p.validated event the status message promises, once per user', async () => {
    const hooks = await receiver([]);
    servers.push(hooks.server);
    mock = await startMock({ webhooks: [{ url: hooks.url, secret: 'plain secret' }] });
    const token = await tokenFor(mock);
    const reply = await getJson(`${mock.url}/p2p/status/${mock.seeded.userId}`, token);
    await getJson(`${mock.url}/p2p/status/${mock.seeded.userId}`, token);
    await mock.control.webhooksIdle();
    expect(hooks.deliveries).toHaveLength(1);
    const event = JSON.parse(hooks.deliveries[0]?.body ?? '{}');
    expect(event).toMatchObject({
      type: 'p2p.validated',
      data: { user_id: mock.seeded.userId, p2p_id: reply.body.data.p2p_id },
    });
    const delivery = hooks.deliveries[0] as Delivery;
    const expected = createHmac('sha256', Buffer.from('plain secret'))
      .update(`${delivery.headers['webhook-id']}.${delivery.headers['webhook-timestamp']}.${delivery.body}`)
      .digest('base64');
    expect(delivery.headers['webhook-signature']).toBe(`v1,${expected}`);
  });
});
