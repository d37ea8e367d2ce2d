import type fc from 'fast-check';
import type { ApiRequest, ApiResponse } from '../api-request.ts';
import { bearer, jsonRequest } from '../api-request.ts';
import { dataOf, isSuccess } from '../envelope-checks.ts';
import { checkProperty } from '../property.ts';
import { PASS, type Rule, type RuleContext, Skip, skipped } from '../rule.ts';
import { bodyRuleSetup, validBodyArbitrary } from '../valid-requests.ts';

/** Concurrent identical requests sent by idempotency.concurrent-requests. */
export const CONCURRENT_REQUESTS = 5;
/** Pause before a repeat, so a provider that only merges requests in flight is not taken for idempotent. */
export const REPEAT_PAUSE_MS = 60;

const transactionId = (response: ApiResponse): unknown => dataOf(response)?.transaction_id;
const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Valid usdTransfer bodies and the token to send them with. */
async function transfers(context: RuleContext): Promise<
  | {
      bodies: fc.Arbitrary<Record<string, unknown>>;
      send: (body: unknown) => Promise<[ApiRequest, ApiResponse]>;
    }
  | Skip
> {
  const setup = await bodyRuleSetup(context, 'usdTransfer');
  if (setup instanceof Skip) return setup;
  const { token, ids, spec: operation } = setup;
  return {
    bodies: validBodyArbitrary(context, operation, ids),
    async send(body) {
      const request = jsonRequest('POST', operation.path, body, bearer(token));
      return [request, await context.api.send(request)];
    },
  };
}

/** The first request must create a transaction for the property to say anything. */
function wasCreated(response: ApiResponse): boolean {
  return isSuccess(response) && typeof transactionId(response) === 'string';
}

export const sameReferenceReplayRule: Rule = {
  id: 'idempotency.same-reference-replay',
  category: 'idempotency',
  title: 'repeating a usdTransfer with the same reference and body never creates a second transaction',
  operations: ['usdTransfer'],
  profileFor: () => 'documented',
  async run(context) {
    const setup = await transfers(context);
    if (setup instanceof Skip) return skipped(setup.reason);
    return checkProperty(context, setup.bodies, async (body) => {
      const [, first] = await setup.send(body);
      if (!wasCreated(first)) return PASS; // positive.accepted reports refusals of valid transfers
      await pause(REPEAT_PAUSE_MS);
      const [request, response] = await setup.send(body);
      if (!isSuccess(response) || transactionId(response) === transactionId(first)) return PASS;
      return {
        ok: false,
        reason: `the repeat created transaction ${String(transactionId(response))}; the first was ${String(transactionId(first))}`,
        request,
        response,
      };
    });
  },
};

/** A field of the transfer changed in a way that keeps the body valid. */
function changed(body: Record<string, unknown>): Record<string, unknown> {
  const amount = typeof body.amount === 'number' ? body.amount : 1;
  return {
    ...body,
    amount: amount >= 2 ? Math.round(amount * 100 - 100) / 100 : Math.round(amount * 100 + 100) / 100,
  };
}

export const sameReferenceDifferentBodyRule: Rule = {
  id: 'idempotency.same-reference-different-body',
  category: 'idempotency',
  title: 'a reused reference with other parameters is never accepted as a new transaction (strict: 409)',
  operations: ['usdTransfer'],
  profileFor: () => 'documented',
  async run(context) {
    const setup = await transfers(context);
    if (setup instanceof Skip) return skipped(setup.reason);
    return checkProperty(context, setup.bodies, async (body) => {
      const [, first] = await setup.send(body);
      if (!wasCreated(first)) return PASS;
      const [request, response] = await setup.send(changed(body));
      if (context.profile === 'strict' && response.status !== 409) {
        return {
          ok: false,
          reason: `HTTP ${response.status}, expected 409 for a reused reference`,
          request,
          response,
        };
      }
      if (!isSuccess(response) || transactionId(response) === transactionId(first)) return PASS;
      return {
        ok: false,
        reason: `the reused reference created transaction ${String(transactionId(response))} carrying the new amount; the first was ${String(transactionId(first))}`,
        request,
        response,
      };
    });
  },
};

export const concurrentRequestsRule: Rule = {
  id: 'idempotency.concurrent-requests',
  category: 'idempotency',
  title: `${CONCURRENT_REQUESTS} concurrent identical usdTransfers yield one transaction`,
  operations: ['usdTransfer'],
  profileFor: () => 'documented',
  async run(context) {
    const setup = await transfers(context);
    if (setup instanceof Skip) return skipped(setup.reason);
    return checkProperty(context, setup.bodies, async (body) => {
      const exchanges = await Promise.all(
        Array.from({ length: CONCURRENT_REQUESTS }, () => setup.send(body)),
      );
      const accepted = exchanges.filter(([, response]) => isSuccess(response));
      const ids = new Set(accepted.map(([, response]) => transactionId(response)));
      if (ids.size <= 1) return PASS;
      const [request, response] = accepted[accepted.length - 1] as [ApiRequest, ApiResponse];
      return {
        ok: false,
        reason: `${CONCURRENT_REQUESTS} concurrent identical requests created ${ids.size} transactions: ${[...ids].join(', ')}`,
        request,
        response,
      };
    });
  },
};
