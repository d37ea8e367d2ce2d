// Entry of the child process that runs Pact's verifier: the FFI prints its own report on the
// process's stdout, which pacu's reporters must own, so the verifier gets a process of its own.
import { createApiClient, type TargetConfig } from '../suites/index.ts';
import { type PactSource, runVerifier, type SentRequest, type VerifierOutcome } from './pact-adapter.ts';
import { KNOWN_PROVIDER_STATES } from './provider-state-names.ts';
import { createProviderStates } from './provider-states.ts';

export interface VerifierJob {
  readonly config: TargetConfig;
  readonly source: PactSource;
  readonly timeoutMs: number;
}

/** A state the handler could not set up, with why. */
export interface StateFailure {
  readonly state: string;
  readonly reason: string;
}

export type VerifierReply =
  | {
      readonly kind: 'done';
      readonly outcome: VerifierOutcome;
      readonly stateFailures: readonly StateFailure[];
      /** States pacu has no handler for: their interactions ran without setup, as in Pact's verifier. */
      readonly unhandledStates: readonly string[];
      /** The requests the verifier sent, in order (one per interaction), with the states' values filled in. */
      readonly requests: readonly SentRequest[];
    }
  | { readonly kind: 'error'; readonly message: string };

async function run(job: VerifierJob): Promise<VerifierReply> {
  const api = createApiClient({
    baseUrl: job.config.baseUrl,
    timeoutMs: job.timeoutMs,
    ...(job.config.headers ? { headers: job.config.headers } : {}),
  });
  const states = createProviderStates(job.config, api);
  const stateFailures: StateFailure[] = [];
  const unhandledStates = new Set<string>();
  const requests: SentRequest[] = [];
  try {
    const outcome = await runVerifier({
      providerBaseUrl: job.config.baseUrl,
      headers: job.config.headers ?? {},
      source: job.source,
      timeoutMs: job.timeoutMs,
      onRequest: (request) => requests.push(request),
      setupState: async (name, params) => {
        // Pact's verifier warns and runs the interaction without setup when no handler exists.
        if (!KNOWN_PROVIDER_STATES.includes(name)) {
          unhandledStates.add(name);
          return {};
        }
        try {
          return await states.setup(name, params);
        } catch (error) {
          // Recorded, not thrown: pact-js would only print it and carry on.
          stateFailures.push({ state: name, reason: (error as Error).message });
          return {};
        }
      },
    });
    return { kind: 'done', outcome, stateFailures, unhandledStates: [...unhandledStates], requests };
  } catch (error) {
    return { kind: 'error', message: (error as Error).message };
  } finally {
    await api.close();
  }
}

// One job at a time: the parent sends the next only after this one's reply. It disconnects a child
// it no longer needs, and a parent that dies closes the channel too: either way the child is done.
if (process.send) {
  process.on('message', (job: VerifierJob) => {
    void run(job).then((reply) => process.send?.(reply));
  });
  process.once('disconnect', () => process.exit(0));
}
