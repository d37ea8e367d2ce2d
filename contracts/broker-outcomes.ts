import type { InteractionOutcome } from './contract-report.ts';
import type { SentRequest } from './pact-adapter.ts';
import type { PactInteraction } from './pact-file.ts';
import type { VerifierReply } from './verifier-process.ts';

type Done = Extract<VerifierReply, { kind: 'done' }>;

/**
 * Outcomes of pacts fetched from a broker: only the verifier knows their interactions, so each is
 * named from its report (consumer, provider, states, description) and its errors are taken by that
 * identity. A failure of a pending pact is reported as skipped with its problems: Pact's pending
 * pacts never fail the build.
 */
export function outcomesFromBroker(
  brokerUrl: string,
  result: Done,
  operationOf: (sent: SentRequest) => InteractionOutcome['operation'],
): InteractionOutcome[] {
  // One request per interaction, in order: then each outcome gets the request it sent.
  const sentInOrder = result.requests.length === result.outcome.interactions.length;
  const errors = result.outcome.errors.map((error) => ({ ...error, pending: false }));
  const pending = result.outcome.pendingErrors.map((error) => ({ ...error, pending: true }));
  const left = [...errors, ...pending];
  return result.outcome.interactions.map((run, position): InteractionOutcome => {
    const given = run.states.length > 0 ? ` Given ${run.states.join(' And ')}` : '';
    const name = `Verifying a pact between ${run.consumer} and ${run.provider}${given} - ${run.description}`;
    const index = run.passed
      ? -1
      : left.findIndex((error) =>
          run.consumer ? error.interaction === name : error.interaction.endsWith(` - ${run.description}`),
        );
    const error = index >= 0 ? left.splice(index, 1)[0] : undefined;
    const interaction: PactInteraction = {
      file: brokerUrl,
      consumer: run.consumer || 'broker',
      provider: run.provider,
      description: run.description,
      providerStates: run.states.map((state) => ({ name: state, params: {} })),
      request: { method: 'GET', path: '', query: {}, headers: {}, body: undefined, bodyRules: new Map() },
      response: { status: 0, headers: {}, body: undefined, bodyRules: new Map(), statusRules: [] },
      specVersion: 4,
      source: { interaction: {}, pact: {} },
    };
    const problems = error?.problems ?? [];
    const sent = sentInOrder ? result.requests[position] : undefined;
    const base = {
      interaction,
      operation: sent ? operationOf(sent) : undefined,
      durationMs: run.durationMs,
      ...(sent ? { sent } : {}),
      ...(sent?.response ? { response: sent.response } : {}),
    };
    if (run.passed) return { ...base, status: 'passed', reasons: [] };
    if (run.pending || error?.pending)
      return {
        ...base,
        status: 'skipped',
        reasons: [`pending pact, so its failure does not fail the build: ${problems.join('; ') || 'failed'}`],
      };
    return { ...base, status: 'failed', reasons: problems.length > 0 ? problems : ['failed'] };
  });
}
