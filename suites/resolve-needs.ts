import { createHash } from 'node:crypto';
import type { OperationId, OperationSpec, Scope } from '../spec/index.ts';
import type { CheckRun } from './check-run.ts';
import { type ControlApiClient, ControlApiError, clockRefusal } from './control-client.ts';
import { checkOnce, checkProperty } from './property.ts';
import { idsFor } from './resolve-ids.ts';
import type { ReceivingCase, Rule, RuleKit, ScopeGrant } from './rule.ts';
import type { TargetIds } from './target-config.ts';
import { referenceFor, validBodyArbitrary, validRequestArbitrary } from './valid-requests.ts';

const STRICT_ONLY = 'a pacu decision, not in the description: checked with --profile strict';
const NO_CONTROL = `needs --control-url: a pacu mock's control API`;
const NO_SCOPE = 'the operation needs no particular scope, so no token can lack it';

type Unmet = { readonly reason: string };

/** A token for every scope but the operation's: what a client without the operation's scope holds. */
async function otherScopes(run: CheckRun, operation: OperationSpec): Promise<RuleKit['otherScopes'] | Unmet> {
  const needed: readonly string[] = operation.security.kind === 'bearer' ? operation.security.scopes : [];
  const scopes = run.spec.scopes.filter((scope) => !needed.includes(scope));
  if (needed.length === 0 || scopes.length === 0) return { reason: NO_SCOPE };
  const grant = await run.tokens.tryGet(scopes);
  if ('reason' in grant)
    return { reason: `needs a client holding scope ${scopes.join(',')}: ${grant.reason}` };
  // A target may grant more than asked (it echoes what it granted): a token holding the operation's
  // scope is rightly accepted, so a 200 would prove nothing and a failure would be pacu's.
  const held = needed.filter((scope) => grant.granted.includes(scope));
  if (held.length > 0)
    return {
      reason: `the target granted scope ${grant.granted.join(',')} when asked for ${scopes.join(',')}: pacu cannot hold a token without ${held.join(',')}`,
    };
  return { token: grant.token, scopes };
}

/** Every non-empty set of the spec's scope names. */
function scopeSets(scopes: readonly Scope[]): Scope[][] {
  return scopes.reduce<Scope[][]>(
    (sets, scope) => [...sets, ...sets.map((set) => [...set, scope]), [scope]],
    [],
  );
}

/** Tokens for every set of scopes the target grants: two at least, or nothing to compare. */
async function grants(run: CheckRun): Promise<readonly ScopeGrant[] | Unmet> {
  const held: ScopeGrant[] = [];
  for (const asked of scopeSets(run.spec.scopes)) {
    const grant = await run.tokens.tryGet(asked);
    if (!('reason' in grant)) held.push({ asked, ...grant });
  }
  return held.length >= 2
    ? held
    : { reason: 'the target granted one scope set only: no two grants to compare' };
}

/** A token, then the target's clock moved past its lifetime (so every token pacu holds is dropped). */
async function expiredToken(
  run: CheckRun,
  control: ControlApiClient,
): Promise<RuleKit['expiredToken'] | Unmet> {
  const token = await run.tokens.get();
  const ageSeconds = run.spec.tokenLifetimeSeconds + 1;
  try {
    await control.advanceClock(ageSeconds);
  } catch (error) {
    if (error instanceof ControlApiError) return { reason: clockRefusal(error) };
    throw error;
  } finally {
    run.tokens.clear();
  }
  return { token, ageSeconds };
}

/**
 * The one place a rule's needs are resolved and every skip reason is written: the kit a rule runs
 * with, or why it cannot run on this operation. `replayingCaseOf` names the rule whose case was just
 * replayed, when this rule is to judge only what that case received.
 */
export async function resolveNeeds(
  run: CheckRun,
  rule: Rule,
  operation: OperationId,
  replayingCaseOf?: string,
): Promise<RuleKit | Unmet> {
  if (rule.profileFor(operation) === 'strict' && run.profile === 'documented' && !rule.optedIn?.(run.config))
    return { reason: STRICT_ONLY };
  const needs = new Set(rule.needs);
  const operationSpec = run.spec.operation(operation);
  let ids = {} as Required<TargetIds>;
  if (needs.has('ids')) {
    const found = idsFor(run.ids, operation);
    if ('reason' in found) return found;
    ids = found.ids;
  }
  if ((needs.has('control') || needs.has('expired-token')) && !run.control)
    return { reason: `${NO_CONTROL} (pacu moves its clock instead of waiting)` };
  const scoped = needs.has('other-scopes') ? await otherScopes(run, operationSpec) : undefined;
  if (scoped && 'reason' in scoped) return scoped;
  const granted = needs.has('grants') ? await grants(run) : [];
  if ('reason' in granted) return granted;
  const observation = needs.has('observation') ? await run.observation(rule.id) : undefined;
  if (observation && 'reason' in observation) return observation;
  if (observation && !observation.payments.some((payment) => payment.operation === operation))
    return { reason: `no ${operation} payment could be created to observe` };
  const token = needs.has('token') ? await run.tokens.get() : '';
  // Last: it moves the target's clock, which no skip above should have paid for.
  const expired =
    needs.has('expired-token') && run.control ? await expiredToken(run, run.control) : undefined;
  if (expired && 'reason' in expired) return expired;
  const nonce = createHash('sha256')
    .update(`${run.runNonce}/${rule.id}/${operation}`)
    .digest('hex')
    .slice(0, 10);
  const generation = { spec: run.spec, profile: run.profile, config: run.config, nonce };
  const parameters = {
    seed: run.seed,
    numRuns: run.numRuns,
    ...(run.path !== undefined ? { path: run.path } : {}),
  };
  // The case being judged, so an error answer it receives names it for the replay line.
  let current: Pick<ReceivingCase, 'path' | 'input'> = {};
  const receivedIn = (): ReceivingCase => ({ rule: rule.id, label: rule.id, seed: run.seed, ...current });
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
    otherScopes: scoped ?? { token: '', scopes: [] },
    expiredToken: expired ?? { token: '', ageSeconds: 0 },
    send: (request) => run.send(request, operation, receivedIn()),
    sendRaw: (request) => run.api.send(request),
    grants: granted,
    valid: () => validRequestArbitrary(generation, operation, token, ids),
    validBodies: () => validBodyArbitrary(generation, operationSpec, ids),
    referenceFor: (body) => referenceFor(body, nonce),
    check: (arbitrary, judge, runs) =>
      checkProperty(
        runs === undefined ? parameters : { ...parameters, numRuns: Math.min(runs, run.numRuns) },
        arbitrary,
        judge,
        (path, input) => {
          current = { path, input };
        },
      ),
    once: (judge) => checkOnce(run.seed, judge),
    ...(run.control ? { control: run.control } : {}),
    ...(observation ? { observation } : {}),
    errorAnswers: () => run.errorAnswers.get(operation) ?? { judged: 0, problems: [] },
    ...(replayingCaseOf ? { replayingCaseOf } : {}),
    seed: run.seed,
  };
}
