import { defineConfig } from 'vitest/config';

/**
 * The tests of what users install (the packed tarball, the browser, the CI recipe), on one pack and
 * one install; two files at a time, since they mostly wait on npm, pacu and the browser.
 */
export default defineConfig({
  test: {
    include: ['test/package/**/*.test.ts'],
    globalSetup: ['test/package/pack-once.ts'],
    maxWorkers: 2,
    testTimeout: 120_000,
    hookTimeout: 300_000,
  },
});
