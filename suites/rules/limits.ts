import type { DecidedLimits } from '../../spec/index.ts';
import { refusalProblem } from '../judge/expect-status.ts';
import { bearer, jsonRequest } from '../target/api-request.ts';
import { responseStatus, takesJson } from './read-operation.ts';
import { defineRule, PASS } from './rule.ts';

/** Each run sends fixed-size probes around a generated body: a few runs show it, 100 would only be slow. */
const RUNS = 3;

function nested(depth: number): unknown {
  let value: unknown = 'deep';
  for (let level = 0; level < depth; level++) value = { next: value };
  return value;
}

/** A probe and the shared response (components/responses) the operation answers it with. */
type Probe = { readonly what: string; readonly extra: Record<string, unknown>; readonly response: string };

/** Probes just past the spec's decided limits (x-pacu-limits). */
const probes = (limits: DecidedLimits): readonly Probe[] => [
  {
    what: `a body over ${limits.maxBodyBytes} bytes`,
    extra: { padding: 'x'.repeat(limits.maxBodyBytes) },
    response: 'PayloadTooLarge',
  },
  {
    what: `JSON nested ${limits.maxJsonDepth + 8} levels deep`,
    extra: { metadata: nested(limits.maxJsonDepth + 8) },
    response: 'BadRequest',
  },
];

export const limitsRule = defineRule({
  id: 'errors.limits',
  category: 'errors',
  title:
    'a body over 1 MiB gets 413 and JSON nested deeper than 32 levels gets 400 (pacu decisions, x-pacu-limits)',
  appliesTo: takesJson,
  profileFor: () => 'strict',
  needs: ['token', 'ids'],
  run(kit) {
    const checks = probes(kit.spec.limits);
    return kit.check(
      kit.validBodies(),
      async (body) => {
        // Every probe on every body, so no run can miss a limit the target lacks.
        for (const probe of checks) {
          // Otherwise valid, with its own reference: only the limit can be the reason to refuse it.
          const withProbe = { ...body, ...probe.extra };
          if (typeof body.reference === 'string') withProbe.reference = kit.referenceFor(withProbe);
          const request = jsonRequest('POST', kit.path, withProbe, bearer(kit.token));
          const response = await kit.send(request);
          const problem = refusalProblem(
            response,
            'strict',
            responseStatus(kit.spec, kit.operationSpec, probe.response),
          );
          if (problem) return { ok: false, reason: `${probe.what}: ${problem.reason}`, request, response };
        }
        return PASS;
      },
      RUNS,
    );
  },
});
