import { createHmac } from 'node:crypto';

/** An answer the provider gives as an error envelope. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    // A provider refuses thousands of requests a run, none of them a bug: no stack is taken.
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(message);
    Error.stackTraceLimit = limit;
  }
}

/** A payment whose lifecycle the provider's clock moves. */
export interface Payment {
  record: Record<string, unknown>;
  kind: string;
  dueAt: number;
  final: string;
}

/** What the control API of a pacu-style test provider reads and moves. */
export interface ControlDeps {
  readonly clock: { now: number };
  readonly payments: Map<string, Payment>;
  readonly newId: (prefix: string) => string;
  readonly timestamp: () => string;
  readonly breaks: (rule: string) => boolean;
  readonly startPayment: (kind: string, record: Record<string, unknown>) => void;
  /** What GET /__pacu/ids answers. */
  readonly ids: Readonly<Record<string, unknown>>;
}

/**
 * The part of a pacu mock's control API the suites use (ids, receivers, push-to-card, the clock),
 * with signed webhook deliveries on each transition, for the `pacu`-style test provider.
 */
export function createProviderControl(
  deps: ControlDeps,
): (method: string, path: string, text: string) => Promise<{ status: number; body: unknown }> {
  const receivers: Array<{ url: string; secret: string }> = [];
  async function deliver(type: string, record: Record<string, unknown>): Promise<void> {
    const body = JSON.stringify({ type, timestamp: deps.timestamp(), data: record });
    const id = deps.newId('msg');
    const seconds = Math.floor(deps.clock.now / 1000);
    for (const receiver of receivers) {
      const key = deps.breaks('lifecycle.signed-webhooks')
        ? Buffer.from('wrong key')
        : Buffer.from(receiver.secret.slice(6), 'base64');
      const signature = createHmac('sha256', key).update(`${id}.${seconds}.${body}`).digest('base64');
      await fetch(receiver.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'webhook-id': id,
          'webhook-timestamp': String(seconds),
          'webhook-signature': `v1,${signature}`,
        },
        body,
      });
    }
  }

  return async function control(
    method: string,
    path: string,
    text: string,
  ): Promise<{ status: number; body: unknown }> {
    const body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
    if (method === 'GET' && path === '/ids') {
      return {
        status: 200,
        body: deps.ids,
      };
    }
    if (method === 'POST' && path === '/webhooks/receivers') {
      receivers.push({ url: String(body.url), secret: String(body.secret) });
      return { status: 200, body: { id: `rcv_${receivers.length}` } };
    }
    if (method === 'DELETE' && path.startsWith('/webhooks/receivers/')) return { status: 200, body: {} };
    if (method === 'POST' && path === '/payments/card') {
      const id = deps.newId('ptc');
      const record = {
        transaction_id: id,
        amount: Number(body.amount),
        card_number: '411111******1111',
        description: '',
        transaction_date: deps.timestamp(),
        transaction_status: 'processing',
      };
      deps.startPayment('push_to_card', record);
      return { status: 200, body: record };
    }
    if (method === 'POST' && path === '/clock/advance') {
      deps.clock.now += Number(body.seconds) * 1000;
      for (const payment of deps.payments.values()) {
        if (payment.record.transaction_status !== 'processing' || payment.dueAt > deps.clock.now) continue;
        payment.record.transaction_status = payment.final;
        await deliver(`${payment.kind}.${payment.final}`, { ...payment.record });
        if (deps.breaks('lifecycle.status-transitions')) {
          payment.record.transaction_status = 'failed';
          await deliver(`${payment.kind}.failed`, { ...payment.record });
        }
      }
      return { status: 200, body: { now: deps.timestamp() } };
    }
    throw new HttpError(404, `no control route ${method} ${path}`);
  };
}
