// The small things a newcomer trips on in the first minutes.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Report } from '../suites/index.ts';
import { main } from './main.ts';
import { renderConsole } from './reporters/console-reporter.ts';
import { renderHtml } from './reporters/html-reporter.ts';
import { renderJunit } from './reporters/junit-reporter.ts';
import { renderMarkdown } from './reporters/markdown-reporter.ts';

async function run(...args: string[]) {
  let stdout = '';
  let stderr = '';
  const exitCode = await main(args, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
  return { exitCode, stdout, stderr };
}

/** A pact with exactly one interaction: the first of pacu's own cards pact. */
function onePact(): string {
  const source = new URL('../contracts/pacts/pacu-merchant-cards-pacu-api.json', import.meta.url);
  const pact = JSON.parse(readFileSync(source, 'utf8')) as { interactions: unknown[] };
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'pacu-one-')), 'one.json');
  writeFileSync(file, JSON.stringify({ ...pact, interactions: pact.interactions.slice(0, 1) }));
  return file;
}

const report = (command: Report['command']): Report => ({
  tool: 'pacu',
  command,
  version: '0.1.0',
  target: command === 'webhooks check' ? 'http://127.0.0.1:1/hooks' : 'http://127.0.0.1:1/v3',
  seed: 0,
  profile: 'documented',
  startedAt: '2026-11-22T12:00:00.000Z',
  durationMs: 100,
  summary: { passed: 1, failed: 0, skipped: 0 },
  rules: [
    {
      id: command === 'webhooks check' ? 'webhooks.signed-accepted' : 'contract',
      category: command === 'webhooks check' ? 'delivery' : 'contract',
      operation: command === 'webhooks check' ? 'p2p.validated' : 'listUsers',
      profile: 'documented',
      status: 'passed',
      runs: 1,
      durationMs: 1,
    },
  ],
});

describe('what a newcomer sees first', () => {
  it('`pacu webhooks` with no subcommand lists its subcommand check', async () => {
    const result = await run('webhooks');
    expect(result.stdout).toMatch(/^ {2}check\b/m);
    expect(result.exitCode).toBe(0);
  });

  it('suggests the command meant by a typo, in one line with exit 2', async () => {
    const result = await run('chek');
    expect(result.exitCode).toBe(2);
    expect(result.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(/^pacu: .*chek.*did you mean check\?/i),
    ]);
  });

  it('suggests the flag meant by a typo, in one line with exit 2', async () => {
    const result = await run('check', '--targt', 'http://127.0.0.1:1/v3');
    expect(result.exitCode).toBe(2);
    expect(result.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(/^pacu: .*--targt.*did you mean --target\?/i),
    ]);
  });

  it('counts one interaction in the singular', async () => {
    const result = await run('verify', '--against-spec', '--pact', onePact());
    expect(result.stdout).toContain('pacu verify: 1 interaction against');
  });

  it('prints the summary line on the terminal when every reporter writes a file, and not with --quiet', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'pacu-files-'));
    const files = ['--reporter', `json:${dir}/r.json`, '--reporter', `junit:${dir}/r.xml`];
    const loud = await run('verify', '--against-spec', '--pact', onePact(), ...files);
    expect(loud.exitCode).toBe(0);
    expect(loud.stdout).toMatch(/^1 passed, 0 failed, 0 skipped in [\d.]+ s$/m);
    const quiet = await run('verify', '--against-spec', '--pact', onePact(), '--quiet', ...files);
    expect(quiet.stdout).toBe('');
  });

  it('does not print a seed for verify, which draws none', () => {
    for (const text of [
      renderConsole(report('verify')),
      renderHtml(report('verify')),
      renderMarkdown(report('verify')),
      renderJunit(report('verify')),
    ])
      expect(text).not.toMatch(/seed/);
    expect(renderConsole(report('verify'))).toContain('profile documented');
    expect(renderConsole(report('check'))).toContain('seed 0');
  });

  it('heads the webhooks HTML matrix by events, not operations', () => {
    const html = renderHtml(report('webhooks check'));
    expect(html).toContain('Events × categories');
    expect(html).not.toContain('Operations × categories');
    expect(renderHtml(report('check'))).toContain('Operations × categories');
  });
});
