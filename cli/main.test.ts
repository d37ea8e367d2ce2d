import { describe, expect, it } from 'vitest';
import { loadSpec } from '../spec/index.ts';
import { CHECKS } from '../suites/index.ts';
import { main } from './main.ts';

async function run(...args: string[]) {
  let stdout = '';
  let stderr = '';
  const exitCode = await main(args, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
  return { exitCode, stdout, stderr };
}

describe('pacu command line', () => {
  it('prints its version', async () => {
    const result = await run('--version');
    expect(result).toMatchObject({ exitCode: 0, stdout: '0.1.0\n', stderr: '' });
  });

  it('lists its commands in --help', async () => {
    const result = await run('--help');
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain('spec');
  });

  it('prints the full help, every command listed, when run without arguments', async () => {
    const result = await run();
    expect(result.exitCode).toBe(0);
    for (const command of ['spec', 'mock', 'check', 'verify', 'help'])
      expect(result.stdout).toMatch(new RegExp(`^  ${command}\\b`, 'm'));
    expect(result.stderr).toBe('');
  });

  it('answers `pacu help` and `pacu help check` with exit 0', async () => {
    expect(await run('help')).toMatchObject({ exitCode: 0, stderr: '' });
    const check = await run('help', 'check');
    expect(check).toMatchObject({ exitCode: 0, stderr: '' });
    expect(check.stdout).toContain('Usage: pacu check');
    expect(check.stdout).toContain('--profile');
  });

  it.each([
    [['bogus'], "pacu: unknown command 'bogus'"],
    [['--bogus'], "pacu: unknown option '--bogus'"],
    [['spec', '--nope'], "pacu: unknown option '--nope'"],
    [
      ['spec', '--spec', '/nonexistent/openapi.yaml'],
      'pacu: cannot read the OpenAPI description /nonexistent/openapi.yaml',
    ],
  ])('answers %j with one line and exit code 2', async (args, line) => {
    const result = await run(...args);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toBe(`${line}\n`);
  });

  it.each([
    [['mock', '--webhook-url', 'notaurl'], /^pacu: .*--webhook-url "notaurl" is not an http\(s\) URL\n$/],
    [
      ['mock', '--webhook-secret', 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'],
      /^pacu: --webhook-secret signs deliveries to a --webhook-url/,
    ],
    [
      ['mock', '--state', '/nonexistent/folder/state.jsonl'],
      /^pacu: --state \/nonexistent\/folder\/state.jsonl cannot be written: its folder does not exist\n$/,
    ],
  ])('checks pacu mock %j at start: one line, exit 2', async (args, line) => {
    const result = await run(...args);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(line);
  });

  it('lists every check of the registry with id, category, profile, fault and title in pacu rules', async () => {
    const result = await run('rules', '--json');
    expect(result.exitCode).toBe(0);
    const rows = JSON.parse(result.stdout) as Array<{
      id: string;
      category: string;
      profile: string;
      title: string;
      fault: string;
      by: string;
    }>;
    expect(rows.map((row) => row.id)).toEqual(CHECKS.map((check) => check.id));
    expect(rows.find((row) => row.id === 'client.request-shape')).toMatchObject({
      fault: 'client',
      by: 'proxy',
    });
    expect(rows.find((row) => row.id === 'envelope.success-shape')).toMatchObject({
      fault: 'provider',
      by: 'check+proxy',
    });
    expect(rows.find((row) => row.id === 'auth.scope-enforced')).toMatchObject({
      category: 'auth',
      profile: 'strict',
    });
    expect((await run('rules')).stdout).toMatch(/^envelope\.content-type\s+envelope\s+documented\s+\S/m);
  });

  it('names the operations a rule is documented on by their ids, in text and JSON', async () => {
    const ids = (await loadSpec()).operations.map((operation) => operation.id);
    const rows = JSON.parse((await run('rules', '--json')).stdout) as Array<{ id: string; profile: string }>;
    const mixed = rows.filter((row) => row.profile.startsWith('documented on '));
    expect(mixed.map((row) => row.id)).toEqual(
      expect.arrayContaining(['auth.bearer-required', 'positive.echoes-request', 'positive.creation-values']),
    );
    for (const row of mixed) {
      const named = /^documented on (.+); strict elsewhere$/.exec(row.profile)?.[1]?.split(', ') ?? [];
      expect(named.length, row.id).toBeGreaterThan(0);
      for (const id of named) expect(ids, `${row.id}: ${row.profile}`).toContain(id);
    }
    expect((await run('rules')).stdout).not.toContain('[object');
  });

  it('summarises the spec as one JSON document', async () => {
    const result = await run('spec', '--json');
    const summary = JSON.parse(result.stdout) as { operations: Array<{ operationId: string }> };
    expect(summary.operations.map((o) => o.operationId)).toContain('usdTransfer');
    expect(summary.operations).toHaveLength(9);
  });
});
