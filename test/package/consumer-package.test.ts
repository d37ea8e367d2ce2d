// pacu as users get it: `npm pack`, installed into a fresh project, used through its bin, from plain
// Node ESM and from TypeScript under strict settings. Nothing here imports pacu's sources.
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { cpSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { run } from './fresh-project.ts';
import { installed } from './installed.ts';

const fixtures = fileURLToPath(new URL('./consumer/', import.meta.url));
const project = inject('project');
let installLog = '';
let tarballFiles: readonly string[] = [];
const pacu = (args: string[]) => run(path.join(project, 'node_modules/.bin/pacu'), args, { cwd: project });

beforeAll(async () => {
  ({ installLog, tarballFiles } = await installed());
  cpSync(fixtures, project, { recursive: true });
}, 300_000);

describe('the npm package in a fresh project', () => {
  it("runs the installed package, not this repository's build", () => {
    // The other projects point pacu's sources at the repository's compiled children.
    expect(process.env.PACU_VERIFIER_SCRIPT).toBeUndefined();
  });

  it('ships the compiled code, its declarations, the spec, the docs and LICENSE, and no tests, benches or sources', () => {
    expect(tarballFiles).toEqual(
      expect.arrayContaining([
        'LICENSE',
        'README.md',
        'package.json',
        'dist/cli/bin.js',
        'dist/index.d.ts',
        'dist/spec/openapi.yaml',
      ]),
    );
    expect(
      tarballFiles.filter((file) => /\.test\.|^test\/|^bench\/|\.ts$/.test(file) && !file.endsWith('.d.ts')),
    ).toEqual([]);
  });

  it("ships a package.json without the repository's scripts, so npm names no install script of pacu-kit", () => {
    const shipped = JSON.parse(
      readFileSync(path.join(project, 'node_modules/pacu-kit/package.json'), 'utf8'),
    );
    expect(shipped).not.toHaveProperty('scripts');
    expect(shipped).not.toHaveProperty('devDependencies');
    expect(shipped).toMatchObject({ name: 'pacu-kit', bin: { pacu: 'dist/cli/bin.js' } });
    expect(installLog).not.toMatch(/pacu-kit@[^\n]*\((prepare|install|postinstall|preinstall):/);
    // The checked-in manifest is put back after packing: `npm ci` here still builds dist/.
    const own = JSON.parse(
      readFileSync(fileURLToPath(new URL('../../package.json', import.meta.url)), 'utf8'),
    );
    expect(own.scripts.prepare).toBe('node scripts/build.mjs --if-stale');
  });

  it('runs `pacu --help` and `pacu check` (exit 0) from the installed bin', async () => {
    expect((await pacu(['--help'])).stdout).toContain('check');
    const check = await pacu(['check', '--runs', '10']);
    expect(check.stdout).toMatch(/\d+ passed, 0 failed/);
  });

  it.skipIf(spawnSync('taskset', ['-c', '0', 'true']).status !== 0)(
    'runs `pacu mock` from the installed bin on one CPU: served by a relaunched child that stops with the launcher',
    async () => {
      const launcher = spawn(
        'taskset',
        ['-c', '0', path.join(project, 'node_modules/.bin/pacu'), 'mock', '--json'],
        {
          cwd: project,
          stdio: ['ignore', 'pipe', 'inherit'],
        },
      );
      const [line] = (await once(createInterface({ input: launcher.stdout }), 'line')) as [string];
      const info = JSON.parse(line) as { url: string; pid: number };
      expect(info.pid).not.toBe(launcher.pid);
      expect(readFileSync(`/proc/${info.pid}/cmdline`, 'utf8').split('\0')).toContain('--v8-pool-size=0');
      expect((await fetch(`${info.url}/users`)).status).toBe(401);
      const exited = once(launcher, 'exit');
      launcher.kill('SIGTERM');
      expect((await exited)[0]).toBe(0);
      await expect(fetch(`${info.url}/users`)).rejects.toThrow();
    },
  );

  it('is importable from plain Node ESM: starts the mock and calls it', async () => {
    const { stdout } = await run(process.execPath, ['consumer.mjs'], { cwd: project });
    expect(JSON.parse(stdout)).toMatchObject({ operations: 9, status: 200 });
  });

  it('type-checks a TypeScript consumer under strict, exactOptionalPropertyTypes, noPropertyAccessFromIndexSignature and noUncheckedIndexedAccess', async () => {
    const tsc = path.join(project, 'node_modules/typescript/bin/tsc');
    await expect(
      run(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: project }),
    ).resolves.toBeDefined();
    expect(readdirSync(project)).toContain('consumer.ts');
  });
});
