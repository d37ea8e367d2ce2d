import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['{spec,http,mock,suites,contracts,diff,cli,proxy}/**/*.test.ts', 'test/**/*.test.ts'],
    // test/package/ packs, installs and drives pacu as users get it: vitest.package.config.ts runs it
    // after the rest, alone, so its npm and tsc processes do not starve the servers other tests start.
    // The Pact consumer tests run once per `npm test`, inside test/contracts-reproducible.test.ts (a
    // child vitest with PACU_PACT_DIR set that regenerates the pacts and compares them byte for byte);
    // run here as well, two sets of Pact FFI mock servers competed and failed now and then under load.
    exclude: [
      'test/package/**',
      // Regenerates the pacts with Pact FFI mock servers in a child vitest: it runs alone, after
      // the rest (vitest.pact.config.ts), since beside another file's servers it missed requests.
      'test/contracts-reproducible.test.ts',
      ...(process.env.PACU_PACT_DIR ? [] : ['contracts/consumer-tests/**']),
      '**/node_modules/**',
    ],
    // The processes tests start run the compiled pacu, rebuilt here when the sources changed.
    globalSetup: ['test/helpers/build-if-stale.ts'],
    // Servers on loopback start in most suites; a generous timeout keeps a loaded 2-core CI honest.
    testTimeout: 30_000,
    // Two files at once even on 2 cores: most wait on loopback servers and child processes (decision 152).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    hookTimeout: 30_000,
  },
});
