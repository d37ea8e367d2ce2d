import { PacuError } from '../spec/index.ts';
import type { InteractionOutcome } from './contract-report.ts';
import type { VerifierError } from './pact-adapter.ts';
import type { PactInteraction } from './pact-file.ts';
import type { VerifierReply } from './verifier-process.ts';

type Done = Extract<VerifierReply, { kind: 'done' }>;

function done(reply: VerifierReply): Done {
  if (reply.kind === 'error')
    throw new PacuError('PACU_ERR_USAGE', `pacu: the Pact verifier could not run: ${reply.message}`);
  return reply;
}

/** The verifier names an interaction `Verifying a pact between C and P [Given S] - description`. */
function errorsFor(errors: readonly VerifierError[], interaction: PactInteraction): VerifierError[] {
  return errors.filter(
    (error) =>
      error.interaction.endsWith(` - ${interaction.description}`) &&
      error.interaction.includes(`between ${interaction.consumer} and`),
  );
}

/**
 * One outcome per interaction of the pact files: skipped with the reason when a state cannot be met
 * on the target, otherwise what the verifier said, with any state that failed to set up.
 */
export function outcomesFromFiles(
  interactions: readonly PactInteraction[],
  unmet: ReadonlyMap<PactInteraction, readonly string[]>,
  operationOf: (interaction: PactInteraction) => InteractionOutcome['operation'],
  reply: VerifierReply | undefined,
): InteractionOutcome[] {
  const result = reply ? done(reply) : undefined;
  const runs = [...(result?.outcome.interactions ?? [])];
  return interactions.map((interaction): InteractionOutcome => {
    const operation = operationOf(interaction);
    const skipped = unmet.get(interaction);
    if (skipped) return { interaction, operation, status: 'skipped', reasons: skipped, durationMs: 0 };
    // Descriptions may repeat across pact files: take the runs in order, one per interaction.
    const index = runs.findIndex((run) => run.description === interaction.description);
    const run = index >= 0 ? runs.splice(index, 1)[0] : undefined;
    const stateProblems = (result?.stateFailures ?? [])
      .filter((failure) => interaction.providerStates.some((state) => state.name === failure.state))
      .map((failure) => `provider state "${failure.state}" could not be set up: ${failure.reason}`);
    const problems = errorsFor(result?.outcome.errors ?? [], interaction).flatMap((error) => error.problems);
    if (run?.passed && problems.length === 0)
      return { interaction, operation, status: 'passed', reasons: [], durationMs: run.durationMs };
    return {
      interaction,
      operation,
      status: 'failed',
      reasons: [
        ...new Set([...stateProblems, ...(run ? problems : ['the verifier did not run this interaction'])]),
      ],
      durationMs: run?.durationMs ?? 0,
    };
  });
}

/** Outcomes of pacts fetched from a broker: only the verifier knows their interactions. */
export function outcomesFromBroker(brokerUrl: string, reply: VerifierReply): InteractionOutcome[] {
  const result = done(reply);
  return result.outcome.interactions.map((run): InteractionOutcome => {
    const errors = result.outcome.errors.filter((error) =>
      error.interaction.endsWith(` - ${run.description}`),
    );
    const consumer = /between (.+?) and /.exec(errors[0]?.interaction ?? '')?.[1] ?? 'broker';
    const interaction: PactInteraction = {
      file: brokerUrl,
      consumer,
      provider: '',
      description: run.description,
      providerStates: [],
      request: { method: 'GET', path: '', query: {}, headers: {}, body: undefined, bodyRules: new Map() },
      response: { status: 0, headers: {}, body: undefined, bodyRules: new Map() },
    };
    return {
      interaction,
      operation: undefined,
      status: run.passed ? 'passed' : 'failed',
      reasons: errors.flatMap((error) => error.problems),
      durationMs: run.durationMs,
    };
  });
}
