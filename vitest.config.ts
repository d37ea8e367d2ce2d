import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** The unit tests beside the code they test: pure functions and in-process servers, no process-wide state. */
const UNIT = '{spec,http,mock,suites,contracts,diff,cli,proxy}/**/*.test.ts';
/** The Pact consumer tests: run only to regenerate the pacts (`npm run pacts`, vitest.pact.config.ts). */
const CONSUMER_TESTS = 'contracts/consumer-tests/**/*.test.ts';
const EXCLUDED = ['test/package/**', 'test/contracts-reproducible.test.ts', '**/node_modules/**'];

/**
 * Files that spend their time waiting on a network they simulate (rate limits, maintenance windows,
 * round trips), not on the CPU: started first, they overlap with the rest instead of ending the run.
 */
const NETWORK_BOUND = ['test/unseen-legal-providers.test.ts', 'test/check-remote.test.ts'];

class NetworkBoundFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const waits = (file: TestSpecification): boolean =>
      NETWORK_BOUND.some((name) => file.moduleId.endsWith(`/${name}`));
    return [...sorted.filter(waits), ...sorted.filter((file) => !waits(file))];
  }
}

export default defineConfig({
  test: {
    // test/package/ packs, installs and drives pacu as users get it: vitest.package.config.ts runs it
    // after the rest, so its npm and tsc processes do not starve the servers other tests start.
    // The pacts regenerated from the consumer tests are compared byte for byte by
    // test/contracts-reproducible.test.ts, a child vitest with PACU_PACT_DIR set that runs alone
    // (vitest.pact.config.ts): beside another file's Pact FFI mock servers it missed requests.

    // The processes tests start run the compiled pacu, rebuilt here when the sources changed.
    globalSetup: ['test/helpers/build-if-stale.ts'],
    // So is the Pact verifier's child process that pacu's sources start (run-verifier-process.ts).
    env: {
      PACU_VERIFIER_SCRIPT: fileURLToPath(new URL('./dist/contracts/verifier-process.js', import.meta.url)),
    },
    // Servers on loopback start in most suites; a generous timeout keeps a loaded 2-core CI honest.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Two files at once even on 2 cores: most wait on loopback servers and child processes (decision 152).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    sequence: { sequencer: NetworkBoundFirst },
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: [UNIT],
          exclude: [...EXCLUDED, CONSUMER_TESTS],
          // One module graph per worker instead of one per file: loading Prism and the description
          // again for each of these small files cost more than running them (decision 155).
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'scenarios',
          include: ['test/**/*.test.ts'],
          exclude: EXCLUDED,
          // One module graph per worker here too: a fresh one per file loaded the spec, Prism and
          // undici again and ran each file's checks on code not yet optimised (decision 156). What
          // a file starts must not outlive it, and each-file.ts fails a file that leaves anything.
          isolate: false,
          setupFiles: ['test/helpers/each-file.ts'],
        },
      },
      // The Pact consumer tests hold Pact FFI mock servers in-process: each file keeps a process of
      // its own. They run only to regenerate the pacts (PACU_PACT_DIR set).
      ...(process.env.PACU_PACT_DIR
        ? [
            {
              extends: true as const,
              test: { name: 'consumer-pacts', include: [CONSUMER_TESTS], exclude: EXCLUDED },
            },
          ]
        : []),
    ],
  },
});
