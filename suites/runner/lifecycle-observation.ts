import fc from 'fast-check';
import { pathFor, type Spec } from '../../spec/index.ts';
import { validBodyArbitrary } from '../inputs/valid-requests.ts';
import { dataOf } from '../judge/envelope-checks.ts';
import type { ApiRequest, ApiResponse } from '../target/api-request.ts';
import { bearer, jsonRequest } from '../target/api-request.ts';
import { type ControlApiClient, ControlApiError, clockRefusal } from '../target/control-client.ts';
import type { IdValues } from '../target/resolve-ids.ts';
import type { Delivery, WebhookReceiver } from '../webhooks/webhook-receiver.ts';

/** A payment pacu created, with what it saw of it: the creation exchange, its events and a final read. */
export interface ObservedPayment {
  readonly operation: string;
  /** Event name prefix: usd_transfer, wallet_payout, push_to_card. */
  readonly kind: string;
  readonly transactionId: string;
  readonly request: ApiRequest;
  readonly response: ApiResponse;
  readonly deliveries: readonly Delivery[];
  /** The push-to-card status read after the clock moved. */
  readonly finalRead?: { readonly request: ApiRequest; readonly response: ApiResponse };
}

export interface LifecycleObservation {
  readonly secret: string;
  readonly payments: readonly ObservedPayment[];
  /** Every delivery, ours or not. */
  readonly deliveries: readonly Delivery[];
}

/** Simulated time the clock is moved by: past every step of the default scenario, within a token's life. */
const CLOCK_ADVANCE_SECONDS = 900;
const SETTLE_WAIT_MS = 5000;
/** The operations whose payments the observation follows, and the event name prefix of each. */
export const LIFECYCLE_KINDS: Readonly<Partial<Record<string, string>>> = {
  usdTransfer: 'usd_transfer',
  walletPayout: 'wallet_payout',
  getPushToCardPayment: 'push_to_card',
};

/** What observing lifecycles takes from the run (the runner owns it and observes once per run). */
export interface ObservationInput {
  readonly spec: Spec<string>;
  /** Sends through the run (fresh tokens, one retry on an unexpected 401). */
  readonly send: (request: ApiRequest, operation: string) => Promise<ApiResponse>;
  readonly token: string;
  readonly ids: IdValues;
  readonly seed: number;
  readonly nonce: string;
  /** A pacu mock's control API: pacu adds its own receiver and moves the clock. */
  readonly control?: ControlApiClient;
  /** The receiver the target delivers to (started by the runner), with the secret it signs with. */
  readonly receiver: WebhookReceiver;
  readonly secret: string;
}

/** Each delivery's body parsed once: the settle loop below asks many times a second, for seconds. */
const transactions = new WeakMap<Delivery, unknown>();
const transactionOf = (delivery: Delivery): unknown => {
  if (transactions.has(delivery)) return transactions.get(delivery);
  let id: unknown;
  try {
    id = (JSON.parse(delivery.body) as { data?: { transaction_id?: unknown } }).data?.transaction_id;
  } catch {
    id = undefined;
  }
  transactions.set(delivery, id);
  return id;
};

/**
 * Create payments, let their lifecycles run and collect what the receiver got: the one observation
 * the lifecycle rules judge, or the reason none could be made.
 */
export async function observeLifecycles(
  context: ObservationInput,
): Promise<LifecycleObservation | { readonly reason: string }> {
  const { control, receiver, secret, token, ids } = context;
  let receiverId: string | undefined;
  try {
    if (control) {
      try {
        receiverId = (await control.addReceiver({ url: receiver.url, secret })).id;
      } catch (error) {
        if (error instanceof ControlApiError)
          return { reason: `the control API refused a webhook receiver (HTTP ${error.status})` };
        throw error;
      }
    }
    const created: Omit<ObservedPayment, 'deliveries'>[] = [];
    const [transfer, payout] = ['usdTransfer', 'walletPayout'] as const;
    for (const operationId of [transfer, transfer, payout]) {
      const operation = context.spec.operation(operationId);
      const [body] = fc.sample(validBodyArbitrary(context, operation, ids), {
        seed: context.seed + created.length,
        numRuns: 1,
      });
      const request = jsonRequest('POST', pathFor(operation), body, bearer(token));
      const response = await context.send(request, operationId);
      const transactionId = dataOf(response)?.transaction_id;
      if (typeof transactionId === 'string')
        created.push({
          operation: operationId,
          kind: LIFECYCLE_KINDS[operationId] ?? '',
          transactionId,
          request,
          response,
        });
    }
    if (control) {
      const input = { amount: 25 };
      const request: ApiRequest = {
        method: 'POST',
        path: '/__pacu/payments/card',
        headers: {},
        body: JSON.stringify(input),
      };
      // A target whose control API cannot create one is judged on the other payments.
      const record = await control.createPushToCard(input).catch((error: unknown) => {
        if (error instanceof ControlApiError) return undefined;
        throw error;
      });
      if (record) {
        const text = JSON.stringify(record);
        const response: ApiResponse = { status: 200, headers: {}, text, json: record, durationMs: 0 };
        created.push({
          operation: 'getPushToCardPayment',
          kind: 'push_to_card',
          transactionId: record.transaction_id,
          request,
          response,
        });
      }
      try {
        await control.advanceClock(CLOCK_ADVANCE_SECONDS);
      } catch (error) {
        if (error instanceof ControlApiError) return { reason: clockRefusal(error) };
        throw error;
      }
    }
    const wanted = new Set(created.map((payment) => payment.transactionId));
    const deadline = Date.now() + (control ? SETTLE_WAIT_MS : 30_000);
    while (Date.now() < deadline) {
      const seen = new Set(receiver.deliveries.map(transactionOf));
      if ([...wanted].every((id) => seen.has(id))) break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    const payments = await Promise.all(
      created.map(async (payment) => {
        const deliveries = receiver.deliveries.filter(
          (delivery) => transactionOf(delivery) === payment.transactionId,
        );
        if (payment.operation !== 'getPushToCardPayment') return { ...payment, deliveries };
        const request: ApiRequest = {
          method: 'GET',
          path: pathFor(context.spec.operation('getPushToCardPayment'), {
            transaction_id: payment.transactionId,
          }),
          headers: bearer(token),
        };
        return {
          ...payment,
          deliveries,
          finalRead: { request, response: await context.send(request, payment.operation) },
        };
      }),
    );
    return { secret, payments, deliveries: [...receiver.deliveries] };
  } finally {
    // Leave no dead receiver behind: the target would retry deliveries to it for minutes.
    if (receiverId) await control?.removeReceiver(receiverId);
  }
}
