// docs/github-actions.yml is a recipe people copy: every pacu command it names runs here, against a
// local mock the recipe itself starts, with its own flags (only the port is a free one).
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { freePort } from '../helpers/free-port.ts';
import { PACU_BIN } from '../helpers/pacu-bin.ts';

const RECIPE = fileURLToPath(new URL('../../docs/github-actions.yml', import.meta.url));
const workdir = mkdtempSync(path.join(tmpdir(), 'pacu-recipe-'));

interface Step {
  run?: string;
  if?: string;
}

const steps = (parse(readFileSync(RECIPE, 'utf8')) as { jobs: Record<string, { steps: Step[] }> }).jobs
  .contract?.steps as Step[];
/** Each `npx pacu-kit …` of the recipe as argv, with the shell's background `&` and redirections dropped. */
const commands = steps
  .flatMap((step) => (step.run ? [step.run] : []))
  .filter((run) => run.startsWith('npx pacu-kit '))
  .map((run) =>
    run
      .replace(/\s*>.*$/, '')
      .replace(/\s*&\s*$/, '')
      .split(/\s+/)
      .slice(2),
  );

let mock: ChildProcess | undefined;
afterAll(() => {
  mock?.kill('SIGTERM');
});

describe('docs/github-actions.yml', () => {
  it('starts the mock in the background, then checks and verifies it with JUnit and a job summary', async () => {
    expect(commands.map((argv) => argv[0])).toEqual(['mock', 'check', 'verify']);
    expect(steps.some((step) => step.run?.includes('GITHUB_STEP_SUMMARY') && step.if === 'always()')).toBe(
      true,
    );
    const port = String(await freePort());
    const withPort = (argv: string[]): string[] => argv.map((arg) => arg.replaceAll('4010', port));
    const [mockArgs = [], ...rest] = commands.map(withPort);
    mock = spawn(process.execPath, [PACU_BIN, ...mockArgs], {
      cwd: workdir,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    await new Promise<void>((resolve, reject) => {
      mock?.stdout?.once('data', () => resolve());
      mock?.once('exit', (code) => reject(new Error(`pacu ${mockArgs.join(' ')} exited with ${code}`)));
    });
    for (const argv of rest) {
      const result = await new Promise<{ code: number; stderr: string }>((resolve) =>
        execFile(
          process.execPath,
          [PACU_BIN, ...argv],
          { cwd: workdir, maxBuffer: 2 ** 26 },
          (error, _out, stderr) =>
            resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stderr }),
        ),
      );
      expect({ argv: argv.join(' '), ...result }).toEqual({ argv: argv.join(' '), code: 0, stderr: '' });
    }
    for (const report of ['pacu-check.xml', 'pacu-check.md', 'pacu-verify.xml'])
      expect(existsSync(path.join(workdir, 'reports', report)), report).toBe(true);
  });
});
