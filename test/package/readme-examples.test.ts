// Issue 19, finding 3: the README's examples are tests, against the packed tarball installed into a
// fresh project. Every `js` block runs; every `ts` block type-checks under strict settings (they are
// snippets of a user's test file, or name a server of their own); every `npx pacu-kit …` of an `sh`
// block runs against the embedded mock, or, where it names a server of its own, uses only flags its
// command takes. Blocks are found by fence language, so a new README section is picked up as is.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { freePort } from '../helpers/free-port.ts';
import { run } from './fresh-project.ts';
import { type PacuCall, pacuCalls, readmeBlocks, runsHere } from './readme-blocks.ts';

const README = fileURLToPath(new URL('../../README.md', import.meta.url));
const blocks = readmeBlocks(readFileSync(README, 'utf8'));
const runnable = blocks.filter((block) => !block.notRun);
const project = inject('project');
const children: ChildProcess[] = [];

beforeAll(() => {
  // "Your pacts" (`--pact pacts/`): a copy of the ones pacu-kit ships.
  cpSync(path.join(project, 'node_modules/pacu-kit/dist/contracts/pacts'), path.join(project, 'pacts'), {
    recursive: true,
  });
});
afterAll(() => {
  for (const child of children) child.kill('SIGTERM');
});

/** Run `npx pacu-kit ARGS` in the project, never reaching for the registry. */
function npx(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) =>
    execFile(
      'npx',
      ['--offline', 'pacu-kit', ...args],
      { cwd: project, maxBuffer: 2 ** 26, env: { ...process.env, NO_COLOR: '1' } },
      (error, stdout, stderr) =>
        resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    ),
  );
}

/** `pacu mock …` runs until stopped: start it, wait for its first line, leave it to afterAll. */
async function startsAndAnswers(args: string[]): Promise<string> {
  const child = spawn('npx', ['--offline', 'pacu-kit', ...args], {
    cwd: project,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    child.stdout?.once('data', (data: Buffer) => resolve(data.toString()));
    child.once('exit', (code) => reject(new Error(`pacu ${args.join(' ')} exited with ${code}`)));
  });
}

const helpFlags = new Map<string, Promise<Set<string>>>();
/** The long flags `pacu <command> --help` lists. */
function flagsOf(command: string[]): Promise<Set<string>> {
  const key = command.join(' ');
  const known =
    helpFlags.get(key) ??
    npx([...command, '--help']).then(
      (help) => new Set([...help.stdout.matchAll(/--[a-z][\w-]*/g)].map((match) => match[0])),
    );
  helpFlags.set(key, known);
  return known;
}

const subcommand = (call: PacuCall): string[] => {
  const operands = call.args.filter((arg) => !arg.startsWith('-'));
  return operands[0] === 'webhooks' ? operands.slice(0, 2) : operands.slice(0, 1);
};

describe('README examples, against the installed tarball', () => {
  it('opts out of few blocks, each with its reason', () => {
    const skipped = blocks.filter((block) => block.notRun);
    expect(skipped.length).toBeLessThanOrEqual(3);
    for (const block of skipped) expect(block.notRun?.length, `README.md:${block.line}`).toBeGreaterThan(10);
  });

  it('runs every js block with node', async () => {
    const js = runnable.filter((block) => block.lang === 'js');
    expect(js.length).toBeGreaterThan(0);
    for (const block of js) {
      const file = path.join(project, `readme-${block.line}.mjs`);
      writeFileSync(file, block.code);
      await expect(
        run(process.execPath, [file], { cwd: project }),
        `README.md:${block.line}`,
      ).resolves.toBeDefined();
    }
  });

  it('type-checks every ts block under strict settings', async () => {
    const ts = runnable.filter((block) => block.lang === 'ts');
    expect(ts.length).toBeGreaterThan(0);
    const files = ts.map((block) => {
      const file = `readme-${block.line}.ts`;
      // Each block is a module of its own (its top-level await included).
      writeFileSync(path.join(project, file), `${block.code}\nexport {};\n`);
      return file;
    });
    // The blocks are snippets of a user's test file: the test runner's two globals, loosely typed.
    writeFileSync(
      path.join(project, 'readme-globals.d.ts'),
      'declare function it(name: string, test: () => unknown): void;\ndeclare function expect(value: unknown): any;\n',
    );
    writeFileSync(
      path.join(project, 'tsconfig.readme.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          strict: true,
          noEmit: true,
          skipLibCheck: true,
          types: ['node'],
        },
        files: ['readme-globals.d.ts', ...files],
      }),
    );
    const tsc = path.join(project, 'node_modules/typescript/bin/tsc');
    const result = await run(process.execPath, [tsc, '-p', 'tsconfig.readme.json'], { cwd: project }).catch(
      (error: { stdout: string }) => ({ stdout: error.stdout }),
    );
    expect(result.stdout).toBe('');
  });

  it('runs every pacu command of the sh blocks against the embedded mock, or checks its flags', async () => {
    const calls = runnable.filter((block) => block.lang === 'sh').flatMap(pacuCalls);
    expect(calls.length).toBeGreaterThan(5);
    const ran = new Set<string>();
    const judge = async (call: PacuCall): Promise<void> => {
      const where = `README.md:${call.line}: ${call.text}`;
      if (!runsHere(call)) {
        const known = await flagsOf(subcommand(call));
        for (const flag of call.args.filter((arg) => arg.startsWith('--')))
          expect(known, `${where}: ${flag}`).toContain(flag.split('=')[0]);
        return;
      }
      if (ran.has(call.text)) return;
      ran.add(call.text);
      if (call.args[0] === 'mock') {
        const port = String(await freePort());
        const first = await startsAndAnswers(call.args.map((arg) => arg.replaceAll('4010', port)));
        expect(first, where).toMatch(/127\.0\.0\.1:\d+\/v3/);
        return;
      }
      const result = await npx(call.args);
      // check and verify judge the embedded mock: a verdict (0 or 1) is what they give, never a usage error.
      const verdicts = call.args[0] === 'check' || call.args[0] === 'verify' ? [0, 1] : [0];
      expect(verdicts, `${where}\n${result.stderr}`).toContain(result.code);
      // npm's own warnings about the machine's npm config are npm's, not pacu's.
      expect(result.stderr.replace(/^npm warn .*\n/gm, ''), where).toBe('');
    };
    // Two at a time: each call is a process of its own (npx, then pacu), mostly waiting on the other.
    let next = 0;
    await Promise.all(
      [0, 1].map(async () => {
        while (next < calls.length) await judge(calls[next++] as PacuCall);
      }),
    );
  }, 300_000);
});
