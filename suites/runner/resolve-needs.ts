import { createHash } from 'node:crypto';
import type { Scope } from '../../spec/index.ts';
import {
  pathWithIds,
  referenceFor,
  validBodyArbitrary,
  validRequestArbitrary,
} from '../inputs/valid-requests.ts';
import { RULES } from '../rules/catalogue.ts';
import { type AnyOperation, scopesOf } from '../rules/read-operation.ts';
import type { Need, ReceivingCase, Rule, RuleKit, ScopeGrant } from '../rules/rule.ts';
import { type ControlApiClient, ControlApiError, clockRefusal } from '../target/control-client.ts';
import { idsFor } from '../target/resolve-ids.ts';
import { lifeLeftMs } from '../target/token-source.ts';
import { checkEach, checkOnce, checkProperty, currentCase } from './property.ts';
import type { ObservedAnswers, RunContext } from './run-context.ts';

type Unmet = { readonly reason: string };

/** Cases of one property judged at once; the run's pacer bounds the requests really in flight. */
const CASES_AT_ONCE = 16;

/**
 * Error answers in the order of the rules that received them (then by case), not of their arrival:
 * rules run side by side, and the same seed should name the same failure.
 */
function inCatalogueOrder(answers: ObservedAnswers): ObservedAnswers {
  const rank = (problem: ObservedAnswers['problems'][number]): number =>
    RULES.findIndex((rule) => rule.id === problem.receivedIn.rule);
  const problems = [...answers.problems].sort(
    (a, b) => rank(a) - rank(b) || (a.receivedIn.path ?? '').localeCompare(b.receivedIn.path ?? ''),
  );
  return { judged: answers.judged, problems };
}

/** A token for every scope but the operation's: what a client without the operation's scope holds. */
async function otherScopes(
  run: RunContext,
  operation: AnyOperation,
): Promise<RuleKit<'other-scopes'>['otherScopes'] | Unmet> {
  const needed = scopesOf(operation);
  const scopes = run.spec.scopes.filter((scope) => !needed.includes(scope));
  if (needed.length === 0 || scopes.length === 0)
    return { reason: 'the operation needs no particular scope, so no token can lack it' };
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
  const sets: Scope[][] = [];
  for (const scope of scopes) {
    // Each earlier set with this scope added, then the scope alone (the order the reports show).
    for (const set of sets.slice()) sets.push([...set, scope]);
    sets.push([scope]);
  }
  return sets;
}

/** Tokens for every set of scopes the target grants: two at least, or nothing to compare. */
async function grants(run: RunContext): Promise<readonly ScopeGrant[] | Unmet> {
  const held: ScopeGrant[] = [];
  for (const asked of scopeSets(run.spec.scopes)) {
    const grant = await run.tokens.tryGet(asked);
    if (!('reason' in grant)) held.push({ asked, ...grant });
  }
  return held.length >= 2
    ? held
    : { reason: 'the target granted one scope set only: no two grants to compare' };
}

/** The run's tokens refused early, else its oldest token for the configured scopes with life left to use. */
function heldTokens(run: RunContext): RuleKit<'held-tokens'>['heldTokens'] | Unmet {
  const [early] = run.earlyRefusals;
  if (early) return { refusedEarly: early };
  const now = performance.now();
  const configured = [...run.config.scopes].sort().join(',');
  const oldest = run.tokens
    .issued()
    .find(
      (held) =>
        [...held.scopes].sort().join(',') === configured &&
        now - held.issuedAt < held.lifeMs - lifeLeftMs(held.lifeMs),
    );
  return oldest
    ? { oldest }
    : { reason: 'no token of the run has enough of its stated life left to be used again' };
}

/** A token, then the target's clock moved past its lifetime (so every token pacu holds is dropped). */
async function expiredToken(
  run: RunContext,
  control: ControlApiClient,
): Promise<RuleKit<'expired-token'>['expiredToken'] | Unmet> {
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
 * with, holding exactly what its needs ask for, or why it cannot run on this operation.
 * `replayingCaseOf` names the rule whose case was just replayed, when this rule is to judge only
 * what that case received.
 */
export async function resolveNeeds<N extends Need>(
  run: RunContext,
  rule: Rule<N>,
  operation: string,
  replayingCaseOf?: string,
): Promise<RuleKit<N> | Unmet> {
  const operationSpec = run.spec.operation(operation);
  if (
    rule.profileFor(operationSpec) === 'strict' &&
    run.profile === 'documented' &&
    !rule.optedIn?.(run.config)
  )
    return { reason: `a pacu decision, not in the description: checked with ${run.word('profile')} strict` };
  const needs = new Set<Need>(rule.needs);
  const found = needs.has('ids') ? idsFor(run.ids, operationSpec) : undefined;
  if (found && 'reason' in found) return found;
  if ((needs.has('control') || needs.has('expired-token')) && !run.control)
    return {
      reason: `needs ${run.word('controlUrl')}: a pacu mock's control API (pacu moves its clock instead of waiting)`,
    };
  const scoped = needs.has('other-scopes') ? await otherScopes(run, operationSpec) : undefined;
  if (scoped && 'reason' in scoped) return scoped;
  const granted = needs.has('grants') ? await grants(run) : undefined;
  if (granted && 'reason' in granted) return granted;
  const observation = needs.has('observation') ? await run.observation(rule.id) : undefined;
  if (observation && 'reason' in observation) return observation;
  if (observation && !observation.payments.some((payment) => payment.operation === operation))
    return { reason: `no ${operation} payment could be created to observe` };
  const held = needs.has('held-tokens') ? heldTokens(run) : undefined;
  if (held && 'reason' in held) return held;
  const token = needs.has('token') ? await run.tokens.get() : undefined;
  // Last: it moves the target's clock, which no skip above should have paid for.
  const expired =
    needs.has('expired-token') && run.control ? await expiredToken(run, run.control) : undefined;
  if (expired && 'reason' in expired) return expired;
  // Rules that share answers share references too, so the same generated body is the same request.
  const nonce = createHash('sha256')
    .update(`${run.runNonce}/${rule.repeats ? `${rule.id}/` : ''}${operation}`)
    .digest('hex')
    .slice(0, 10);
  const generation = { spec: run.spec, profile: run.profile, config: run.config, nonce };
  const parameters = {
    seed: run.seed,
    numRuns: run.numRuns,
    parallel: CASES_AT_ONCE,
    // The same read twice finds nothing new; a write (a token, a payment) may come out otherwise.
    distinct: operationSpec.method === 'get',
    ...(run.path !== undefined ? { path: run.path } : {}),
  };
  // The case being judged, so an error answer it receives names it for the replay line.
  const receivedIn = (): ReceivingCase => ({
    rule: rule.id,
    label: rule.id,
    seed: run.seed,
    ...currentCase(),
  });
  const { clientId, clientSecret } = run.config;
  const kit = {
    operation,
    spec: run.spec,
    operationSpec,
    profile: run.profile,
    config: run.config,
    tokens: run.tokens,
    send: (request) => run.send(request, operation, receivedIn(), !rule.repeats),
    sendRaw: (request) => run.api.send(request),
    referenceFor: (body) => referenceFor(body, nonce),
    bounds: run.bounds,
    check: (arbitrary, judge, runs) =>
      checkProperty(
        runs === undefined ? parameters : { ...parameters, numRuns: Math.min(runs, run.numRuns) },
        arbitrary,
        judge,
      ),
    once: (judge) => checkOnce(run.seed, judge),
    observed: () =>
      inCatalogueOrder(run.observed.get(rule.id)?.get(operation) ?? { judged: 0, problems: [] }),
    each: (cases, judge) => checkEach(parameters, cases, judge),
    ...(replayingCaseOf ? { replayingCaseOf } : {}),
    seed: run.seed,
    // Each need's part, present exactly when declared. The probe made sure the client is configured.
    ...(needs.has('client') && clientId !== undefined && clientSecret !== undefined
      ? { client: { clientId, clientSecret } }
      : {}),
    ...(token !== undefined ? { token } : {}),
    ...(found
      ? {
          ids: found.ids,
          path: pathWithIds(operationSpec, found.ids),
          valid: () => validRequestArbitrary(generation, operationSpec, token, found.ids),
          validBodies: () => validBodyArbitrary(generation, operationSpec, found.ids),
        }
      : {}),
    ...(scoped ? { otherScopes: scoped } : {}),
    ...(expired ? { expiredToken: expired } : {}),
    ...(granted ? { grants: granted } : {}),
    ...(needs.has('control') && run.control ? { control: run.control } : {}),
    ...(held ? { heldTokens: held } : {}),
    ...(observation ? { observation } : {}),
  } satisfies RuleKit<never> & Partial<RuleKit>;
  // Every part the rule's needs ask for was resolved above or the function returned its reason.
  return kit as unknown as RuleKit<N>;
}
