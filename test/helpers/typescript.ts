// The TypeScript compiler's API, for the tests that read sources with it. Required, not imported:
// Node imports a CommonJS file only after scanning all of its text for exports and module syntax,
// and this one is large enough for those scans to cost twice what loading it does.
import { createRequire } from 'node:module';
import type TypeScript from 'typescript';

export const ts: typeof TypeScript = createRequire(import.meta.url)('typescript');
