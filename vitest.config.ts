import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** The unit tests beside the code they test: pure functions and in-process servers. */
const UNIT = '{spec,http,mock,suites,contracts,diff,cli,proxy}/**/*.test.ts';
/** The Pact consumer tests: run only to regenerate the pacts (`npm run pacts`, vitest.pact.config.ts). */
const CONSUMER_TESTS = 'contracts/consumer-tests/**/*.test.ts';
const EXCLUDED = ['test/package/**', 'test/contracts-reproducible.test.ts', '**/node_modules/**'];

/** The Pact verifier's child that pacu's sources start runs compiled, as the bin does (decision 155). */
const COMPILED_CHILDREN = {
  PACU_VERIFIER_SCRIPT: fileURLToPath(new URL('./dist/contracts/verifier-process.js', import.meta.url)),
};

/**
 * Files that spend their time waiting, not on the CPU: on a network they simulate (rate limits,
 * maintenance windows, round trips), or on npm, the installed pacu and the browser (test/package/);
 * and tsc, while those wait. Started first, they overlap with the rest instead of ending the run.
 */
const WAITING = [
  'test/typecheck.test.ts',
  'test/package/readme-examples.test.ts',
  'test/unseen-legal-providers.test.ts',
  'test/check-remote.test.ts',
  // Replicas, nginx and PostgreSQL in processes of their own, and a webhook lease waited out.
  'test/cluster-e2e.test.ts',
  'test/package/',
];

/**
 * The files longest on the CPU, longest first, started right after the waiting ones. A fresh CI
 * checkout has no durations of an earlier run, so vitest starts the files larger in bytes first:
 * these small files of long runs came late and ended the run beside an idle core.
 */
const LONG = [
  'test/unseen-mutants.test.ts',
  'test/check-rules.test.ts',
  'test/unseen-independent.test.ts',
  'test/proxy-recording.test.ts',
  'test/cli-behaviour.test.ts',
  'test/mock-learns-space.test.ts',
  'test/contracts-cli.test.ts',
  'test/contracts-verifier-child.test.ts',
  'test/description-required-in-ci.test.ts',
  'test/check-verdicts.test.ts',
];
const STARTED_FIRST = [...WAITING, ...LONG];

class WaitingFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (file: TestSpecification): number => {
      const found = STARTED_FIRST.findIndex((name) => file.moduleId.includes(`/${name}`));
      return found === -1 ? STARTED_FIRST.length : found;
    };
    return sorted
      .map((file, index) => ({ file, index }))
      .sort((a, b) => rank(a.file) - rank(b.file) || a.index - b.index)
      .map(({ file }) => file);
  }
}

export default defineConfig({
  test: {
    // The pacts regenerated from the consumer tests are compared byte for byte by
    // test/contracts-reproducible.test.ts, a child vitest with PACU_PACT_DIR set that runs alone
    // (vitest.pact.config.ts): beside another file's Pact FFI mock servers it missed requests.

    // The processes tests start run the compiled pacu, rebuilt here when the sources changed; the
    // cluster's tests run Debian's PostgreSQL and nginx, installed here as root when missing. First,
    // one temporary folder for the run (removed last), so no test leaves folders in /tmp.
    globalSetup: [
      'test/helpers/temp-root.ts',
      'test/helpers/build-if-stale.ts',
      'test/helpers/system-servers.ts',
    ],
    // Servers on loopback start in most suites; a generous timeout keeps a loaded 2-core CI honest.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Four files at once even on 2 cores: the waiting files (above) hold two of them for most of the
    // run, and the others also wait on loopback servers and child processes (decision 156).
    maxWorkers: Math.max(4, availableParallelism() - 1),
    sequence: { sequencer: WaitingFirst },
    projects: [
      {
        extends: true,
        test: {
          // The unit tests beside the code and the scenarios under test/, in one project: one
          // transform of each source and one module graph per worker for both (decision 158).
          name: 'repository',
          env: COMPILED_CHILDREN,
          include: [UNIT, 'test/**/*.test.ts'],
          exclude: [...EXCLUDED, CONSUMER_TESTS],
          // A module graph per worker, not per file: a fresh one per file loaded the spec, Prism and
          // undici again and ran each file's checks on code not yet optimised (decisions 155, 156).
          // What a file starts must not outlive it, and each-file.ts fails a file that leaves anything.
          isolate: false,
          setupFiles: ['test/helpers/each-file.ts'],
        },
      },
      {
        // pacu as users get it: packed once, installed once into a fresh project that every file
        // shares (each writes only files of its own there). Not `extends`: these files run the
        // installed package, with nothing of this repository's test environment.
        test: {
          name: 'package',
          include: ['test/package/**/*.test.ts'],
          globalSetup: [
            'test/helpers/temp-root.ts',
            'test/helpers/build-if-stale.ts',
            'test/package/pack-once.ts',
          ],
          testTimeout: 120_000,
          hookTimeout: 300_000,
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
