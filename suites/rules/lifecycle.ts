import { dataOf } from '../judge/envelope-checks.ts';
import {
  LIFECYCLE_KINDS,
  type LifecycleObservation,
  type ObservedPayment,
} from '../runner/lifecycle-observation.ts';
import type { TargetConfig } from '../target/target-config.ts';
import { signatureProblem } from '../webhooks/webhook-receiver.ts';
import { defineRule, PASS, type RuleKit, type RuleOutcome, type Verdict } from './rule.ts';

/** The operations whose payments the lifecycle observation follows. */
const observed = (operation: { readonly id: string }): boolean => LIFECYCLE_KINDS[operation.id] !== undefined;
const FINAL = ['successful', 'failed'];

/** Lifecycle rules run when the user can observe webhooks: a pacu control API, or their own receiver. */
const optedIn = (config: TargetConfig): boolean =>
  config.controlUrl !== undefined || config.webhook?.receiverUrl !== undefined;

const parse = (body: string): { type?: unknown; data?: { transaction_status?: unknown } } => {
  try {
    return JSON.parse(body);
  } catch {
    return {};
  }
};

async function forEachPayment(
  kit: RuleKit<'observation'>,
  judge: (payment: ObservedPayment, observation: LifecycleObservation) => Verdict,
): Promise<RuleOutcome> {
  const { observation } = kit;
  // The runner made sure the observation holds payments of this operation.
  const payments = observation.payments.filter((payment) => payment.operation === kit.operation);
  return kit.once(
    async () => payments.map((payment) => judge(payment, observation)).find((v) => !v.ok) ?? PASS,
  );
}

export const statusTransitionsRule = defineRule({
  id: 'lifecycle.status-transitions',
  category: 'lifecycle',
  title: 'transaction_status only moves processing → successful | failed, once, and reads agree with events',
  appliesTo: observed,
  profileFor: () => 'strict',
  needs: ['observation'],
  exclusive: true,
  optedIn,
  run: (kit) =>
    forEachPayment(kit, (payment) => {
      const fail = (reason: string): Verdict => ({
        ok: false,
        reason,
        request: payment.request,
        response: payment.response,
      });
      const events = new Map(
        payment.deliveries.map((d) => [d.headers['webhook-id'] ?? d.body, parse(d.body)]),
      );
      const statuses = [...new Set([...events.values()].map((event) => event.data?.transaction_status))];
      const wrong = statuses.filter((status) => !FINAL.includes(String(status)));
      if (wrong.length > 0)
        return fail(
          `${payment.transactionId} moved to ${wrong.join(', ')}; only successful or failed may follow processing`,
        );
      if (statuses.length > 1)
        return fail(
          `${payment.transactionId} moved to ${statuses.join(' and then ')}; a final status never changes`,
        );
      for (const event of events.values()) {
        if (event.type !== `${payment.kind}.${String(event.data?.transaction_status)}`)
          return fail(
            `event type ${String(event.type)} does not name the new status ${String(event.data?.transaction_status)}`,
          );
      }
      const read = payment.finalRead && dataOf(payment.finalRead.response)?.transaction_status;
      if (payment.finalRead && statuses[0] !== undefined && read !== statuses[0]) {
        return {
          ok: false,
          reason: `the read says ${String(read)}, the event said ${String(statuses[0])}`,
          ...payment.finalRead,
        };
      }
      return PASS;
    }),
});

export const signedWebhooksRule = defineRule({
  id: 'lifecycle.signed-webhooks',
  category: 'lifecycle',
  title: 'each transition arrives as a webhook signed per Standard Webhooks with the receiver secret',
  appliesTo: observed,
  profileFor: () => 'strict',
  needs: ['observation'],
  exclusive: true,
  optedIn,
  run: (kit) =>
    forEachPayment(kit, (payment, observation) => {
      if (payment.deliveries.length === 0) {
        return {
          ok: false,
          reason: `no webhook arrived for ${payment.transactionId} after its lifecycle ran`,
          request: payment.request,
          response: payment.response,
        };
      }
      for (const delivery of payment.deliveries) {
        const problem = signatureProblem(delivery, observation.secret);
        if (problem) {
          return {
            ok: false,
            reason: `the ${String(parse(delivery.body).type)} delivery: ${problem}`,
            request: {
              method: 'POST',
              path: '(webhook delivery)',
              headers: delivery.headers,
              body: delivery.body,
            },
            response: payment.response,
          };
        }
      }
      return PASS;
    }),
});
