// Entry of the child process that runs Pact's verifier: the FFI prints its own report on the
// process's stdout, which pacu's reporters must own, so the verifier gets a process of its own.
import { createApiClient, type TargetConfig } from '../suites/index.ts';
import { type PactSource, runVerifier, type VerifierOutcome } from './pact-adapter.ts';
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
    }
  | { readonly kind: 'error'; readonly message: string };

async function run(job: VerifierJob): Promise<VerifierReply> {
  const api = createApiClient({ baseUrl: job.config.baseUrl, timeoutMs: job.timeoutMs });
  const states = createProviderStates(job.config, api);
  const stateFailures: StateFailure[] = [];
  try {
    const outcome = await runVerifier({
      providerBaseUrl: job.config.baseUrl,
      source: job.source,
      timeoutMs: job.timeoutMs,
      setupState: async (name, params) => {
        try {
          return await states.setup(name, params);
        } catch (error) {
          // Recorded, not thrown: pact-js would only print it and carry on.
          stateFailures.push({ state: name, reason: (error as Error).message });
          return {};
        }
      },
    });
    return { kind: 'done', outcome, stateFailures };
  } catch (error) {
    return { kind: 'error', message: (error as Error).message };
  } finally {
    await api.close();
  }
}

if (process.send) {
  process.once('message', (job: VerifierJob) => {
    void run(job).then((reply) => process.send?.(reply, () => process.disconnect()));
  });
}
