// `tsc --noEmit` over every folder tsconfig.json names, inside the test run rather than before it:
// it then overlaps with the files that wait on npm and the network (decision 156). TypeScript 7's
// native compiler checks the sources, the tests, the benches and the scripts in one pass (decision
// 200); the build compiles with TypeScript 5.9, whose type errors fail the global setup.
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
// Its exports map names only package.json and the version: the launcher is found beside it.
const tsc = path.join(
  path.dirname(createRequire(import.meta.url).resolve('typescript7/package.json')),
  'bin/tsc',
);

it('type-checks everything tsconfig.json names with TypeScript 7 (sources, tests, benches, scripts)', async () => {
  const { code, output } = await new Promise<{ code: number; output: string }>((resolve) =>
    execFile(
      process.execPath,
      [tsc, '--noEmit', '-p', 'tsconfig.json'],
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
