import type { InteractionOutcome } from './contract-report.ts';
import type { PactInteraction } from './pact-file.ts';
import type { VerifierReply } from './verifier-process.ts';

type Done = Extract<VerifierReply, { kind: 'done' }>;

/**
 * Outcomes of pacts fetched from a broker: only the verifier knows their interactions. A failure of a
 * pending pact is reported as skipped with its problems: Pact's pending pacts never fail the build.
 */
export function outcomesFromBroker(brokerUrl: string, result: Done): InteractionOutcome[] {
  const errors = [...result.outcome.errors, ...result.outcome.pendingErrors];
  return result.outcome.interactions.map((run): InteractionOutcome => {
    const index = errors.findIndex((error) => error.interaction.endsWith(` - ${run.description}`));
    const error = run.passed || index < 0 ? undefined : errors.splice(index, 1)[0];
    const between = /between (.+?) and (.+?)(?: Given | - )/.exec(error?.interaction ?? '');
    const interaction: PactInteraction = {
      file: brokerUrl,
      consumer: between?.[1] ?? 'broker',
      provider: between?.[2] ?? '',
      description: run.description,
      providerStates: [],
      request: { method: 'GET', path: '', query: {}, headers: {}, body: undefined, bodyRules: new Map() },
      response: { status: 0, headers: {}, body: undefined, bodyRules: new Map(), statusRules: [] },
      specVersion: 4,
      source: { interaction: {}, pact: {} },
    };
    const problems = error?.problems ?? [];
    const base = { interaction, operation: undefined, durationMs: run.durationMs };
    if (run.passed) return { ...base, status: 'passed', reasons: [] };
    if (run.pending)
      return {
        ...base,
        status: 'skipped',
        reasons: [`pending pact, so it does not fail the build: ${problems.join('; ') || 'failed'}`],
      };
    return { ...base, status: 'failed', reasons: problems.length > 0 ? problems : ['failed'] };
  });
}
