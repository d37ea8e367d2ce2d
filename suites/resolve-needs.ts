import { createHash } from 'node:crypto';
import type { OperationId } from '../spec/index.ts';
import type { CheckRun } from './check-run.ts';
import { checkOnce, checkProperty } from './property.ts';
import { idsFor } from './resolve-ids.ts';
import type { Rule, RuleKit } from './rule.ts';
import type { TargetIds } from './target-config.ts';
import { referenceFor, validBodyArbitrary, validRequestArbitrary } from './valid-requests.ts';

const STRICT_ONLY = 'a pacu decision, not in the description: checked with --profile strict';
const NO_CONTROL = `needs --control-url: a pacu mock's control API`;

/**
 * The one place a rule's needs are resolved and every skip reason is written: the kit a rule runs
 * with, or why it cannot run on this operation.
 */
export async function resolveNeeds(
  run: CheckRun,
  rule: Rule,
  operation: OperationId,
): Promise<RuleKit | { readonly reason: string }> {
  if (rule.profileFor(operation) === 'strict' && run.profile === 'documented' && !rule.optedIn?.(run.config))
    return { reason: STRICT_ONLY };
  let ids = {} as Required<TargetIds>;
  if (rule.needs.includes('ids')) {
    const found = idsFor(run.ids, operation);
    if ('reason' in found) return found;
    ids = found.ids;
  }
  if (rule.needs.includes('control') && !run.control)
    return { reason: `${NO_CONTROL} (pacu moves its clock instead of waiting)` };
  const observation = rule.needs.includes('observation') ? await run.observation() : undefined;
  if (observation && 'reason' in observation) return observation;
  const token = rule.needs.includes('token') ? await run.tokens.get() : '';
  const nonce = createHash('sha256')
    .update(`${run.runNonce}/${rule.id}/${operation}`)
    .digest('hex')
    .slice(0, 10);
  const generation = { spec: run.spec, profile: run.profile, config: run.config, nonce };
  const operationSpec = run.spec.operation(operation);
  const parameters = {
    seed: run.seed,
    numRuns: run.numRuns,
    ...(run.path !== undefined ? { path: run.path } : {}),
  };
  return {
    operation,
    spec: run.spec,
    operationSpec,
    profile: run.profile,
    config: run.config,
    token,
    ids,
    // The probe made sure both are set: without them no run starts.
    client: { clientId: run.config.clientId ?? '', clientSecret: run.config.clientSecret ?? '' },
    tokens: run.tokens,
    send: (request) => run.send(request, operation, rule.id),
    sendRaw: (request) => run.api.send(request),
    valid: () => validRequestArbitrary(generation, operation, token, ids),
    validBodies: () => validBodyArbitrary(generation, operationSpec, ids),
    referenceFor: (body) => referenceFor(body, nonce),
    check: (arbitrary, judge, runs) =>
      checkProperty(
        runs === undefined ? parameters : { ...parameters, numRuns: Math.min(runs, run.numRuns) },
        arbitrary,
        judge,
      ),
    once: checkOnce,
    ...(run.control ? { control: run.control } : {}),
    ...(observation ? { observation } : {}),
    errorAnswers: () => run.errorAnswers.get(operation) ?? { judged: 0, problems: [] },
    seed: run.seed,
  };
}
