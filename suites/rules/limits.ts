import type { OperationId } from '../../spec/index.ts';
import { bearer, jsonRequest } from '../api-request.ts';
import { refusalProblem } from '../expect-status.ts';
import { checkProperty } from '../property.ts';
import { PASS, type Rule, Skip, skipped } from '../rule.ts';
import { bodyRuleSetup, referenceFor, validBodyArbitrary } from '../valid-requests.ts';

const JSON_OPERATIONS: readonly OperationId[] = ['usdTransfer', 'walletPayout', 'createAccount'];
/** The spec's decided limits (x-pacu-decisions/limits): bodies up to 1 MiB, JSON up to 32 levels. */
const MAX_BODY_BYTES = 1024 * 1024;
const MAX_DEPTH = 32;
/** Each run sends fixed-size probes around a generated body: a few runs show it, 100 would only be slow. */
const RUNS = 3;

function nested(depth: number): unknown {
  let value: unknown = 'deep';
  for (let level = 0; level < depth; level++) value = { next: value };
  return value;
}

type Probe = { readonly what: string; readonly extra: Record<string, unknown>; readonly status: number };

const PROBES: readonly Probe[] = [
  {
    what: `a body over ${MAX_BODY_BYTES} bytes`,
    extra: { padding: 'x'.repeat(MAX_BODY_BYTES) },
    status: 413,
  },
  {
    what: `JSON nested ${MAX_DEPTH + 8} levels deep`,
    extra: { metadata: nested(MAX_DEPTH + 8) },
    status: 400,
  },
];

export const limitsRule: Rule = {
  id: 'errors.limits',
  category: 'errors',
  title: 'a body over 1 MiB gets 413 and JSON nested deeper than 32 levels gets 400 (pacu decisions)',
  operations: JSON_OPERATIONS,
  profileFor: () => 'strict',
  async run(context, operation) {
    const setup = await bodyRuleSetup(context, operation);
    if (setup instanceof Skip) return skipped(setup.reason);
    const { token, ids, spec } = setup;
    const bodies = validBodyArbitrary(context, spec, ids);
    return checkProperty({ ...context, numRuns: Math.min(context.numRuns, RUNS) }, bodies, async (body) => {
      // Every probe on every body, so no run can miss a limit the target lacks.
      for (const probe of PROBES) {
        // Otherwise valid, with its own reference: only the limit can be the reason to refuse it.
        const withProbe = { ...body, ...probe.extra };
        if (typeof body.reference === 'string') withProbe.reference = referenceFor(withProbe, context.nonce);
        const request = jsonRequest('POST', spec.path, withProbe, bearer(token));
        const response = await context.api.send(request);
        const problem = refusalProblem(response, 'strict', probe.status);
        if (problem) return { ok: false, reason: `${probe.what}: ${problem}`, request, response };
      }
      return PASS;
    });
  },
};
