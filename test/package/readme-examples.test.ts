// The examples of the README and of every guide are tests against the packed tarball in a fresh
// project (docs/decisions/091): `js` blocks run, `ts` blocks type-check, scenarios and faults load,
// pacu lines run against the embedded mock or have their flags checked. Blocks are found by fence
// language, so a new guide is picked up as is; each failure names the file and the line.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { freePort } from '../helpers/free-port.ts';
import { run } from './fresh-project.ts';
import { installed } from './installed.ts';
import { documentedBlocks, type PacuCall, pacuCalls, runsHere, where } from './readme-blocks.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const blocks = documentedBlocks(root);
const runnable = blocks.filter((block) => !block.notRun);
const project = inject('project');
const children: ChildProcess[] = [];
/**
 * The languages a block may have: what runs, what type-checks, and what is only shown here (the
 * shared-mock guide's nginx config runs in test/cluster-e2e.test.ts, in front of real replicas).
 */
const LANGS = new Set(['js', 'ts', 'sh', 'text', 'json', 'yaml', 'nginx']);

/** What `npx pacu-kit` runs in the project, once it has found the package (checked below). */
const bin = path.join(project, 'node_modules/.bin/pacu');

/** Run COMMAND ARGS in the project, never reaching for the registry. */
function exec(command: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) =>
    execFile(
      command,
      args,
      { cwd: project, maxBuffer: 2 ** 26, env: { ...process.env, NO_COLOR: '1' } },
      (error, stdout, stderr) =>
        resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    ),
  );
}

/** `npx pacu-kit ARGS`, as the installed bin npx runs. */
const pacu = (args: string[]) => exec(bin, args);

/** `pacu mock …` runs until stopped: start it, wait for its first line, leave it to afterAll. */
async function startsAndAnswers(args: string[]): Promise<string> {
  const child = spawn(bin, args, { cwd: project, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let stderr = '';
  child.stderr?.on('data', (data: Buffer) => {
    stderr += data.toString();
  });
  return new Promise((resolve, reject) => {
    child.stdout?.once('data', (data: Buffer) => resolve(data.toString()));
    child.once('exit', (code) => reject(new Error(`pacu ${args.join(' ')} exited with ${code}: ${stderr}`)));
    child.once('error', (error) =>
      reject(new Error(`pacu ${args.join(' ')} did not start: ${error.message}`)),
    );
  });
}

beforeAll(async () => {
  await installed();
  // "Your pacts" (`--pact pacts/`) are the ones the guides' examples write: a consumer test's and one
  // from a recording. The js blocks run before the pacu lines that verify them.
  // "sandbox.har": a recording of a pacu mock standing in for the sandbox, made by `pacu record`.
  const port = String(await freePort());
  await startsAndAnswers(['mock', '--port', port]);
  const recorded = await pacu([
    'record',
    ...['--target', `http://127.0.0.1:${port}/v3`, '--client-id', 'pacu-demo'],
    ...['--client-secret', 'pacu-demo-secret', '--out', 'sandbox.har'],
  ]);
  expect(recorded.code, recorded.stderr).toBe(0);
}, 300_000);
afterAll(async () => {
  // Each mock answers what is in flight and exits; wait for it, so none outlives the test file.
  await Promise.all(
    children
      .filter((child) => child.exitCode === null && child.signalCode === null)
      .map((child) => {
        const gone = once(child, 'exit');
        child.kill('SIGTERM');
        return gone;
      }),
  );
}, 60_000);

const helpFlags = new Map<string, Promise<Set<string>>>();
/** The long flags `pacu <command> --help` lists (through the installed bin: a lookup, not an example). */
function flagsOf(command: string[]): Promise<Set<string>> {
  const key = command.join(' ');
  const known =
    helpFlags.get(key) ??
    run(path.join(project, 'node_modules/.bin/pacu'), [...command, '--help'], { cwd: project }).then(
      (help) => new Set([...help.stdout.matchAll(/--[a-z][\w-]*/g)].map((match) => match[0])),
    );
  helpFlags.set(key, known);
  return known;
}

const subcommand = (call: PacuCall): string[] => {
  const operands = call.args.filter((arg) => !arg.startsWith('-'));
  return operands[0] === 'webhooks' ? operands.slice(0, 2) : operands.slice(0, 1);
};

/** A file name of the project for a block: its document and line, so no two blocks share one. */
const fileFor = (file: string, line: number, extension: string): string =>
  `${file.replace(/\.md$/, '').replaceAll('/', '-')}-${line}.${extension}`;

describe('the examples of the README and the guides, against the installed tarball', () => {
  it('reads the README and every guide, each with examples, and opts out of few blocks', () => {
    const files = new Set(blocks.map((block) => block.file));
    expect([...files]).toEqual(expect.arrayContaining(['README.md', 'docs/guides/mock-in-ci.md']));
    for (const block of blocks)
      expect(LANGS, `${where(block.file, block.line)}: a \`\`\`${block.lang} block`).toContain(block.lang);
    const skipped = blocks.filter((block) => block.notRun);
    expect(skipped.length).toBeLessThanOrEqual(3);
    for (const block of skipped)
      expect(block.notRun?.length, where(block.file, block.line)).toBeGreaterThan(10);
  });

  it('runs `npx pacu-kit` as the installed bin, which runs every pacu line below', async () => {
    // npx finds the package once for every line: each line then starts that bin (decision 158).
    const [viaNpx, direct] = await Promise.all([
      exec('npx', ['--offline', 'pacu-kit', '--version']),
      pacu(['--version']),
    ]);
    expect(viaNpx.code, viaNpx.stderr).toBe(0);
    expect(viaNpx.stdout).toBe(direct.stdout);
    expect(direct.stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
  });

  it('runs every js block with node', async () => {
    const js = runnable.filter((block) => block.lang === 'js');
    expect(js.length).toBeGreaterThan(5);
    const failures: string[] = [];
    // Two at a time, as the pacu lines below: each block is a process of its own, with its own files.
    let next = 0;
    await Promise.all(
      [0, 1].map(async () => {
        for (let block = js[next++]; block; block = js[next++]) {
          const file = path.join(project, fileFor(block.file, block.line, 'mjs'));
          writeFileSync(file, block.code);
          await run(process.execPath, [file], { cwd: project }).catch(
            (error: { stderr: string; code: number }) =>
              failures.push(`${where(block.file, block.line)}: exit ${error.code}: ${error.stderr}`),
          );
        }
      }),
    );
    expect(failures).toEqual([]);
  });

  it('type-checks every ts block under strict settings', async () => {
    const ts = runnable.filter((block) => block.lang === 'ts');
    expect(ts.length).toBeGreaterThan(0);
    const files = ts.map((block) => {
      const file = fileFor(block.file, block.line, 'ts');
      // Each block is a module of its own (its top-level await included).
      writeFileSync(path.join(project, file), `${block.code}\nexport {};\n`);
      return file;
    });
    // A block that runs under vitest imports it, as a user's test file does; the project has no
    // vitest installed, so its two functions are declared, loosely typed.
    writeFileSync(
      path.join(project, 'readme-vitest.d.ts'),
      "declare module 'vitest' {\n  export function it(name: string, test: () => unknown, timeout?: number): void;\n  export function expect(value: unknown): any;\n}\n",
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
        files: ['readme-vitest.d.ts', ...files],
      }),
    );
    const tsc = path.join(project, 'node_modules/typescript/bin/tsc');
    const result = await run(process.execPath, [tsc, '-p', 'tsconfig.readme.json'], { cwd: project }).catch(
      (error: { stdout: string }) => ({ stdout: error.stdout }),
    );
    // tsc names each failing block by its file, e.g. docs-guides-library-api-42.ts.
    expect(result.stdout).toBe('');
  });

  it('loads every scenario and fault a yaml or json block shows, as the mock would', async () => {
    const shown = runnable.filter(
      (block) => (block.lang === 'yaml' && /^rules:/m.test(block.code)) || block.lang === 'json',
    );
    expect(shown.length).toBeGreaterThan(1);
    for (const block of shown) {
      const data = fileFor(block.file, block.line, block.lang);
      writeFileSync(path.join(project, data), block.code);
      const script = path.join(project, fileFor(block.file, block.line, 'check.mjs'));
      writeFileSync(
        script,
        block.lang === 'yaml'
          ? `import { loadScenarioFile } from 'pacu-kit/mock';\nawait loadScenarioFile(${JSON.stringify(data)});\n`
          : [
              "import { readFileSync } from 'node:fs';",
              "import { createMock } from 'pacu-kit/mock';",
              `const fault = JSON.parse(readFileSync(${JSON.stringify(data)}, 'utf8'));`,
              'const mock = await createMock({ log: () => {} });',
              'try { mock.control.addFault(fault); } finally { await mock.close(); }',
            ].join('\n'),
      );
      const ran = await run(process.execPath, [script], { cwd: project }).catch(
        (error: { stderr: string; code: number }) => error,
      );
      expect('code' in ran ? `exit ${ran.code}: ${ran.stderr}` : '', where(block.file, block.line)).toBe('');
    }
  });

  it('runs every pacu command of the sh blocks and yaml steps against the embedded mock, or checks its flags', async () => {
    const calls = runnable.filter((block) => block.lang === 'sh' || block.lang === 'yaml').flatMap(pacuCalls);
    expect(calls.length).toBeGreaterThan(20);
    const ran = new Set<string>();
    const judge = async (call: PacuCall): Promise<void> => {
      const at = `${where(call.file, call.line)}: ${call.text}`;
      const known = await flagsOf(subcommand(call));
      for (const flag of call.args.filter((arg) => arg.startsWith('--')))
        expect(known, `${at}: ${flag}`).toContain(flag.split('=')[0]);
      if (!runsHere(call)) return;
      // A command already run with other report files is the same run: its flags are checked above.
      const key = call.args
        .filter((arg, index) => arg !== '--reporter' && call.args[index - 1] !== '--reporter')
        .join(' ');
      if (ran.has(key)) return;
      ran.add(key);
      if (call.args[0] === 'mock') {
        const port = String(await freePort());
        const first = await startsAndAnswers(call.args.map((arg) => arg.replaceAll('4010', port)));
        expect(first, at).toMatch(/127\.0\.0\.1:\d+\/v3/);
        return;
      }
      const result = await pacu(call.args);
      // check and verify judge the embedded mock: a verdict (0 or 1) is what they give, never a usage error.
      const verdicts = call.args[0] === 'check' || call.args[0] === 'verify' ? [0, 1] : [0];
      expect(verdicts, `${at}\n${result.stderr}`).toContain(result.code);
      // npm's own warnings about the machine's npm config are npm's, not pacu's.
      expect(result.stderr.replace(/^npm warn .*\n/gm, ''), at).toBe('');
    };
    // Two at a time: each call is a process of its own, mostly waiting on the other.
    let next = 0;
    await Promise.all(
      [0, 1].map(async () => {
        while (next < calls.length) await judge(calls[next++] as PacuCall);
      }),
    );
  }, 300_000);
});
