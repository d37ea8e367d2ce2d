// A command's --help, and a flag it does not know, are answered before anything heavy loads: pact-js
// (its consumer DSL brings express, GraphQL and ramda) loads when a pact is written or verified, Ajv
// when a schema is first checked, undici with the first request.
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadedPackages, loadedPackagesPreload } from './helpers/loaded-packages.ts';
import { PACU_BIN } from './helpers/pacu-bin.ts';

function loaded(args: string[]): Promise<Record<string, boolean>> {
  const preload = loadedPackagesPreload({ pact: '@pact-foundation/pact', ajv: 'ajv', undici: 'undici' });
  return new Promise((resolve, reject) =>
    execFile(process.execPath, ['--require', preload, PACU_BIN, ...args], (_error, _stdout, stderr) => {
      const report = loadedPackages(stderr);
      if (report) resolve(report);
      else reject(new Error(`no report from pacu ${args.join(' ')}: ${stderr}`));
    }),
  );
}

describe('what a command loads before it runs', () => {
  it.each([
    ['verify', '--help'],
    ['replay', '--help'],
    ['diff', '--no-such-flag'],
    ['check', '--no-such-flag'],
  ])('pacu %s %s: no pact-js, no Ajv, no undici', async (command, flag) => {
    expect(await loaded([command, flag])).toEqual({ pact: false, ajv: false, undici: false });
  });
});

/** Registered in the pacu process: every module file it loads, one line each on stderr. */
const LOAD_HOOK = `
import { register } from 'node:module';
register('data:text/javascript,' + encodeURIComponent(
  "import { writeSync } from 'node:fs';" +
  "export async function load(url, context, next) { writeSync(2, 'LOADED ' + url + '\\\\n'); return next(url, context); }"));`;

/** The module files of pacu's own `dist/` a `pacu mock` loads until its start-up line. */
async function ownFilesUntilReady(): Promise<string[]> {
  const hook = path.join(mkdtempSync(path.join(tmpdir(), 'pacu-loads-')), 'hook.mjs');
  writeFileSync(hook, LOAD_HOOK);
  // A pool size given, so the process started is the one that serves (decision 042).
  const child = spawn(
    process.execPath,
    ['--v8-pool-size=0', '--import', hook, PACU_BIN, 'mock', '--json', '--port', '0'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout.once('data', () => resolve());
    child.once('exit', (code) => reject(new Error(`pacu mock exited with ${code}: ${stderr}`)));
  });
  const atReady = stderr;
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
  const dist = pathToFileURL(path.dirname(path.dirname(PACU_BIN))).href;
  return atReady
    .split('\n')
    .filter((line) => line.startsWith(`LOADED ${dist}/`))
    .map((line) => line.slice(`LOADED ${dist}/`.length));
}

describe('how pacu loads its own code', () => {
  it('pacu mock starts from the bundle (decision 198): a few chunk files, not one file per source module', async () => {
    const files = await ownFilesUntilReady();
    expect(files[0]).toBe('cli/bin.js');
    expect(files.filter((file) => !file.startsWith('cli/chunks/')).slice(1)).toEqual([]);
    expect(files.length).toBeGreaterThan(1);
    expect(files.length).toBeLessThanOrEqual(25);
  });
});
