// A command's --help, and a flag it does not know, are answered before anything heavy loads: pact-js
// (its consumer DSL brings express, GraphQL and ramda) loads when a pact is written or verified, Ajv
// when a schema is first checked, undici with the first request.
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACU_BIN } from './helpers/pacu-bin.ts';

/** Preloaded into the pacu process: at exit, which of the watched packages it had loaded. */
const WATCH = `
const { createRequire } = require('node:module');
process.on('exit', () => {
  const files = Object.keys(createRequire(__filename).cache);
  const used = (name) => files.some((file) => file.includes('/node_modules/' + name + '/'));
  process.stderr.write('\\nLOADED ' + JSON.stringify({ pact: used('@pact-foundation/pact'), ajv: used('ajv'), undici: used('undici') }));
});`;

function loaded(args: string[]): Promise<{ pact: boolean; ajv: boolean; undici: boolean }> {
  const preload = path.join(mkdtempSync(path.join(tmpdir(), 'pacu-loads-')), 'watch.cjs');
  writeFileSync(preload, WATCH);
  return new Promise((resolve, reject) =>
    execFile(process.execPath, ['--require', preload, PACU_BIN, ...args], (_error, _stdout, stderr) => {
      const line = stderr.split('\n').find((text) => text.startsWith('LOADED '));
      if (line) resolve(JSON.parse(line.slice('LOADED '.length)));
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
