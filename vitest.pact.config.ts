import { defineConfig } from 'vitest/config';

/** The pact files regenerated from the consumer tests and compared byte for byte, alone on the machine. */
export default defineConfig({
  test: {
    include: ['test/contracts-reproducible.test.ts'],
    globalSetup: ['test/helpers/temp-root.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
