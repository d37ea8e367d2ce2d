import { PacuError } from '../spec/index.ts';
import type { InteractionOutcome } from './contract-report.ts';
import type { SentRequest, VerifierError } from './pact-adapter.ts';
import type { PactInteraction } from './pact-file.ts';
import type { VerifierReply } from './verifier-process.ts';

type Done = Extract<VerifierReply, { kind: 'done' }>;

/** The verifier's result; a verifier that could not run is a usage error. */
export function verifierResult(reply: VerifierReply): Done {
  if (reply.kind === 'error')
    throw new PacuError('PACU_ERR_USAGE', `pacu: the Pact verifier could not run: ${reply.message}`);
  return reply;
}

/**
 * The verifier's name for an interaction: `Verifying a pact between C and P Given S1 And S2 - D`.
 * Description and provider states together are the interaction's identity (two interactions may
 * share a description).
 */
function verifierName(interaction: PactInteraction): string {
  const states = interaction.providerStates.map((state) => state.name);
  const given = states.length > 0 ? ` Given ${states.join(' And ')}` : '';
  return `Verifying a pact between ${interaction.consumer} and ${interaction.provider}${given} - ${interaction.description}`;
}

/** Takes each error once, by the full name of the interaction it belongs to. */
function errorTaker(errors: readonly VerifierError[]): (interaction: PactInteraction) => string[] {
  const left = [...errors];
  return (interaction) => {
    const index = left.findIndex((error) => error.interaction === verifierName(interaction));
    return index >= 0 ? [...(left.splice(index, 1)[0]?.problems ?? [])] : [];
  };
}

/** What the verifier's run of each interaction came to; `runnable` is what it was given, in order. */
export interface VerifiedInteraction {
  readonly interaction: PactInteraction;
  readonly passed: boolean;
  readonly problems: readonly string[];
  readonly durationMs: number;
  /** The request as it went out, when the verifier's requests could be told apart. */
  readonly sent?: SentRequest;
}

/**
 * Pair each interaction the verifier was given with its result. Results come in the order the
 * interactions were given; each is checked by description, and errors are taken by full identity.
 */
function pairResults(runnable: readonly PactInteraction[], reply: Done): VerifiedInteraction[] {
  const runs = reply.outcome.interactions;
  const inOrder =
    runs.length === runnable.length &&
    runs.every((run, index) => run.description === runnable[index]?.description);
  const takeError = errorTaker([...reply.outcome.errors, ...reply.outcome.pendingErrors]);
  const sentInOrder = inOrder && reply.requests.length === runnable.length;
  const left = [...runs];
  return runnable.map((interaction, index) => {
    const run = inOrder
      ? runs[index]
      : left.splice(
          left.findIndex((candidate) => candidate.description === interaction.description),
          1,
        )[0];
    const problems = run && !run.passed ? takeError(interaction) : [];
    const sent = sentInOrder ? reply.requests[index] : undefined;
    return {
      interaction,
      passed: run?.passed === true,
      problems: run ? problems : ['the verifier did not run this interaction'],
      durationMs: run?.durationMs ?? 0,
      ...(sent ? { sent } : {}),
    };
  });
}

/**
 * One outcome per interaction of the pact files: skipped with the reason when a known state cannot
 * be met on the target, otherwise what the verifier said, with any state that failed to set up and
 * a note for each state pacu has no handler for (run without setup, as Pact's verifier does).
 */
export function outcomesFromFiles(
  interactions: readonly PactInteraction[],
  unmet: ReadonlyMap<PactInteraction, readonly string[]>,
  operationOf: (interaction: PactInteraction) => InteractionOutcome['operation'],
  reply: VerifierReply | undefined,
): InteractionOutcome[] {
  const result = reply ? verifierResult(reply) : undefined;
  const runnable = interactions.filter((interaction) => !unmet.has(interaction));
  const verified = new Map(
    result ? pairResults(runnable, result).map((item) => [item.interaction, item] as const) : [],
  );
  return interactions.map((interaction): InteractionOutcome => {
    const operation = operationOf(interaction);
    const skipped = unmet.get(interaction);
    if (skipped) return { interaction, operation, status: 'skipped', reasons: skipped, durationMs: 0 };
    const run = verified.get(interaction);
    const names = new Set(interaction.providerStates.map((state) => state.name));
    const notes = (result?.unhandledStates ?? [])
      .filter((state) => names.has(state))
      .map((state) => `no state handler found for state "${state}": the interaction ran without setup`);
    const stateProblems = (result?.stateFailures ?? [])
      .filter((failure) => names.has(failure.state))
      .map((failure) => `provider state "${failure.state}" could not be set up: ${failure.reason}`);
    const common = {
      interaction,
      operation,
      durationMs: run?.durationMs ?? 0,
      ...(notes.length > 0 ? { notes } : {}),
      ...(run?.sent ? { sent: run.sent } : {}),
      ...(run?.sent?.response ? { response: run.sent.response } : {}),
    };
    if (run?.passed && stateProblems.length === 0) return { ...common, status: 'passed', reasons: [] };
    return {
      ...common,
      status: 'failed',
      reasons: [
        ...new Set([...stateProblems, ...(run?.problems ?? ['the verifier did not run this interaction'])]),
      ],
    };
  });
}
