import { dataOf, isSuccess } from '../judge/envelope-checks.ts';
import type { ApiRequest, ApiResponse } from '../target/api-request.ts';
import { bearer, jsonRequest } from '../target/api-request.ts';
import { bodyHas, ownDecidedStatuses, recordFields, takesJson } from './read-operation.ts';
import { defineRule, PASS, type RuleKit, type Verdict } from './rule.ts';

type Kit = RuleKit<'token' | 'ids'>;

/** A JSON operation whose body carries `reference`, "the idempotency and tracking key", and whose record a transaction id. */
const keyedByReference = (operation: Parameters<typeof takesJson>[0]): boolean =>
  takesJson(operation) &&
  bodyHas(operation, 'reference') &&
  recordFields(operation).includes('transaction_id');

/** Concurrent identical requests sent by idempotency.concurrent-requests. */
const CONCURRENT_REQUESTS = 5;
/** Pause before a repeat, so a provider that only merges requests in flight is not taken for idempotent. */
const REPEAT_PAUSE_MS = 60;
/**
 * Cases of a run that pause before their repeat. A provider that merges repeats only within a time
 * window fails the first paused case already; pausing every case was most of a run (decision 020).
 */
const PAUSED_CASES = 10;
/**
 * Cases of each idempotency rule, whatever --runs says: every case is a chain of writes (first,
 * sibling, repeat) that any reference shows alike; a provider that keeps no references fails the first.
 */
const IDEMPOTENCY_RUNS = 8;
/** Cases of the concurrency rule: each sends five twins at once. */
const CONCURRENT_RUNS = 4;

const transactionId = (response: ApiResponse): unknown => dataOf(response)?.transaction_id;
const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Send a usdTransfer body; the exchange is the evidence. */
async function send(kit: Kit, body: unknown): Promise<[ApiRequest, ApiResponse]> {
  const request = jsonRequest('POST', kit.path, body, bearer(kit.token));
  return [request, await kit.send(request)];
}

/** The first request must create a transaction for the property to say anything. */
function wasCreated(response: ApiResponse): boolean {
  return isSuccess(response) && typeof transactionId(response) === 'string';
}

/**
 * Before any replay is judged: the same body under a fresh reference must be a different
 * transaction. A target that answers the same id whatever the reference (a stateless mock) would
 * make every "same reference, same transaction" hold vacuously, so it fails here and says so.
 */
async function referencesKeptApart(
  kit: Kit,
  body: Record<string, unknown>,
  first: ApiResponse,
): Promise<Verdict> {
  const sibling = { ...body, reference: kit.referenceFor({ ...body, sibling: true }) };
  const [request, response] = await send(kit, sibling);
  if (!wasCreated(response) || transactionId(response) !== transactionId(first)) return PASS;
  return {
    ok: false,
    reason: `two different references (${String(body.reference)}, ${String(sibling.reference)}) both got transaction ${String(transactionId(first))}: the target does not keep references apart, so no replay can be judged`,
    request,
    response,
  };
}

export const sameReferenceReplayRule = defineRule({
  id: 'idempotency.same-reference-replay',
  category: 'idempotency',
  title: 'repeating a usdTransfer with the same reference and body never creates a second transaction',
  appliesTo: keyedByReference,
  needs: ['token', 'ids'],
  profileFor: () => 'documented',
  repeats: true,
  run: (kit) => {
    let cases = 0;
    return kit.check(
      kit.validBodies(),
      async (body) => {
        cases += 1;
        const [, first] = await send(kit, body);
        if (!wasCreated(first)) return PASS; // positive.accepted reports refusals of valid transfers
        const apart = await referencesKeptApart(kit, body, first);
        if (!apart.ok) return apart;
        // A replayed case (--replay) is the first of its run, so it pauses as it did.
        if (cases <= PAUSED_CASES) await pause(REPEAT_PAUSE_MS);
        const [request, response] = await send(kit, body);
        if (!isSuccess(response) || transactionId(response) === transactionId(first)) return PASS;
        return {
          ok: false,
          reason: `the repeat created transaction ${String(transactionId(response))}; the first was ${String(transactionId(first))}`,
          request,
          response,
        };
      },
      IDEMPOTENCY_RUNS,
    );
  },
});

/** A field of the transfer changed in a way that keeps the body valid. */
function changed(body: Record<string, unknown>): Record<string, unknown> {
  const amount = typeof body.amount === 'number' ? body.amount : 1;
  return {
    ...body,
    amount: amount >= 2 ? Math.round(amount * 100 - 100) / 100 : Math.round(amount * 100 + 100) / 100,
  };
}

export const sameReferenceDifferentBodyRule = defineRule({
  id: 'idempotency.same-reference-different-body',
  category: 'idempotency',
  title: 'a reused reference with other parameters is never accepted as a new transaction (strict: 409)',
  appliesTo: keyedByReference,
  needs: ['token', 'ids'],
  profileFor: () => 'documented',
  repeats: true,
  run: (kit) =>
    kit.check(
      kit.validBodies(),
      async (body) => {
        const [, first] = await send(kit, body);
        if (!wasCreated(first)) return PASS;
        const apart = await referencesKeptApart(kit, body, first);
        if (!apart.ok) return apart;
        const [request, response] = await send(kit, changed(body));
        if (isSuccess(response) && transactionId(response) !== transactionId(first)) {
          return {
            ok: false,
            reason: `the reused reference created transaction ${String(transactionId(response))} carrying the new amount; the first was ${String(transactionId(first))}`,
            request,
            response,
          };
        }
        const decided = ownDecidedStatuses(kit.spec, kit.operationSpec);
        if (kit.profile === 'strict' && decided.length > 0 && !decided.includes(response.status)) {
          return {
            ok: false,
            reason: `HTTP ${response.status}, expected ${decided.join(' or ')} for a reused reference (pacu's decision)`,
            profile: 'strict',
            request,
            response,
          };
        }
        return PASS;
      },
      IDEMPOTENCY_RUNS,
    ),
});

export const concurrentRequestsRule = defineRule({
  id: 'idempotency.concurrent-requests',
  category: 'idempotency',
  title: `${CONCURRENT_REQUESTS} concurrent identical usdTransfers yield one transaction`,
  appliesTo: keyedByReference,
  needs: ['token', 'ids'],
  profileFor: () => 'documented',
  repeats: true,
  run: (kit) =>
    kit.check(
      kit.validBodies(),
      async (body) => {
        const exchanges = await Promise.all(
          Array.from({ length: CONCURRENT_REQUESTS }, () => send(kit, body)),
        );
        const accepted = exchanges.filter(([, response]) => isSuccess(response));
        const ids = new Set(accepted.map(([, response]) => transactionId(response)));
        const [, first] = accepted[0] ?? [];
        if (first && wasCreated(first)) {
          const apart = await referencesKeptApart(kit, body, first);
          if (!apart.ok) return apart;
        }
        if (ids.size <= 1) return PASS;
        const [request, response] = accepted[accepted.length - 1] as [ApiRequest, ApiResponse];
        return {
          ok: false,
          reason: `${CONCURRENT_REQUESTS} concurrent identical requests created ${ids.size} transactions: ${[...ids].join(', ')}`,
          request,
          response,
        };
      },
      CONCURRENT_RUNS,
    ),
});
