import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['{spec,mock,suites,contracts,cli}/**/*.test.ts', 'test/**/*.test.ts'],
    // Servers on loopback start in most suites; a generous timeout keeps a loaded 2-core CI honest.
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
