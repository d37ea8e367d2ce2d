// `tsc --noEmit` over every folder tsconfig.json names, inside the test run rather than before it:
// it then overlaps with the files that wait on npm and the network (decision 156). The sources were
// checked by the build the global setup makes current; the rest is checked against its declarations
// (tsconfig.typecheck.json, decision 193).
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');

it('type-checks the tests, the benches and the scripts against the built sources (tsconfig.typecheck.json)', async () => {
  const { code, output } = await new Promise<{ code: number; output: string }>((resolve) =>
    execFile(
      process.execPath,
      [tsc, '--noEmit', '-p', 'tsconfig.typecheck.json'],
      { cwd: root, maxBuffer: 2 ** 26 },
      (error, stdout, stderr) =>
        resolve({
          code: error ? Number((error as { code?: number }).code ?? 1) : 0,
          output: `${stdout}${stderr}`,
        }),
    ),
  );
  expect(output).toBe('');
  expect(code).toBe(0);
}, 120_000);
