import { fileURLToPath } from 'node:url';

/**
 * The compiled `pacu` the tests start as a process: what users run, and a start without tsx's loader
 * compiling the sources in every child. vitest.config.ts builds it first when the sources changed.
 */
export const PACU_BIN = fileURLToPath(new URL('../../dist/cli/bin.js', import.meta.url));
