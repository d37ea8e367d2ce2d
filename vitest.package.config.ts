import { defineConfig } from 'vitest/config';

/** The tests of what users install (the packed tarball, the browser, the CI recipe), run one file at a time. */
export default defineConfig({
  test: {
    include: ['test/package/**/*.test.ts'],
    globalSetup: ['test/package/pack-once.ts'],
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 300_000,
  },
});
