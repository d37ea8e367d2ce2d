// `npx pacu-kit proxy` and `npx pacu-kit mock` as the README runs them, stopped the ways people stop
// them: Ctrl-C in a terminal (SIGINT to the whole foreground process group) and SIGTERM to the npx
// process (what CI sends to `cmd &`). npm runs pacu through `sh -c` and passes signals to that
// shell only; see docs/decisions/120-launcher-and-signals.md.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { tokenFor } from '../mock-helpers.ts';
import { installed } from './installed.ts';

/** The client every pacu mock starts with. */
const DEMO = { clientId: 'pacu-demo', clientSecret: 'pacu-demo-secret' };

/** The shared fresh project with the packed pacu-kit installed (test/package/pack-once.ts). */
const project = inject('project');
/** The environment variable that tells the processes of one start from every other. */
const MARKER = 'PACU_NPX_TEST';
const markers: string[] = [];

/** The pids of the processes started with `marker` in their environment: npm, its shell, pacu. */
function processesOf(marker: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1]?.[0] === 'Z') continue;
      if (readFileSync(`/proc/${entry}/environ`, 'utf8').includes(`\0${MARKER}=${marker}\0`))
        pids.push(Number(entry));
    } catch {
      // Gone while we looked.
    }
  }
  return pids;
}

afterEach(() => {
  // Whatever a failed test left running, by pid: only processes this test started.
  for (const marker of markers.splice(0)) {
    for (const pid of processesOf(marker)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {}
    }
  }
});

async function until(condition: () => boolean, ms = 30_000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!condition() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  return condition();
}

interface Running {
  child: ChildProcess;
  /** This start's processes that still run. */
  processes(): number[];
  info: Record<string, string>;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stderr(): string;
}

/**
 * Start a command in the fresh project, in a process group of its own as a shell starts a job, and
 * read the one JSON line it prints. `shell` is npm's script shell: the system's /bin/sh unless set.
 */
function startIn(command: string, args: string[], shell?: string): Promise<Running> {
  const marker = randomUUID();
  markers.push(marker);
  const env: NodeJS.ProcessEnv = { ...process.env, [MARKER]: marker };
  for (const name of Object.keys(env)) if (name.startsWith('npm_')) delete env[name];
  if (shell) env.npm_config_script_shell = shell;
  const child = spawn(command, args, {
    cwd: project,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk) => {
    stderr += chunk;
  });
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return new Promise((resolve, reject) => {
    createInterface({ input: child.stdout as NodeJS.ReadableStream }).once('line', (line) =>
      resolve({
        child,
        processes: () => processesOf(marker),
        info: JSON.parse(line),
        exit,
        stderr: () => stderr,
      }),
    );
    void exit.then(({ code }) => reject(new Error(`${args.join(' ')} exited with ${code}: ${stderr}`)));
  });
}

const npx = (args: string[], shell?: string): Promise<Running> =>
  startIn('npx', ['--no', 'pacu-kit', ...args], shell);

/**
 * A `GET /users` through `url` that the mock behind `control` holds for 2 s: resolves once the mock
 * has it (the request is in flight), with the promise of its status (or the error that cut it).
 */
async function requestInFlight(url: string, control: string): Promise<Promise<number | Error>> {
  const bearer = await tokenFor({ url, demoClient: { ...DEMO, scopes: [] } });
  await fetch(`${control}/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ operation: 'listUsers', kind: 'delay', ms: 2000 }),
  });
  const answer = fetch(`${url}/users`, { headers: { authorization: `Bearer ${bearer}` } }).then(
    (response) => response.status,
    (error: Error) => error,
  );
  const fired = async (): Promise<boolean> => {
    const faults = (await (await fetch(`${control}/faults`)).json()) as Array<{ fired: number }>;
    return faults.some((fault) => fault.fired > 0);
  };
  while (!(await fired())) await new Promise((resolve) => setTimeout(resolve, 20));
  return answer;
}

/** Ctrl-C in a terminal: SIGINT to every process of the foreground job. */
const ctrlC = (job: Running): boolean => process.kill(-(job.child.pid as number), 'SIGINT');

describe('npx pacu-kit, stopped by a signal', () => {
  let upstream: Running | undefined;

  beforeAll(async () => {
    await installed();
    upstream = await startIn(path.join(project, 'node_modules/.bin/pacu'), ['mock', '--json']);
    // It serves every test of this block: afterEach leaves it alone.
    markers.length = 0;
  }, 300_000);

  afterAll(() => {
    for (const pid of upstream?.processes() ?? []) process.kill(pid, 'SIGKILL');
  });

  interface Case {
    command: 'mock' | 'proxy';
    stop: 'SIGTERM to npx' | 'Ctrl-C';
    /** npm's script shell: `sh` is the system's /bin/sh (dash on Debian). */
    shell: 'sh' | '/bin/bash';
    /** How npx must end, where pacu's exit code can reach it. */
    exit?: { code: number; signal: null };
  }

  // Each: the request in flight is answered, the report written, nothing is left running.
  it.each<Case>([
    { command: 'proxy', stop: 'SIGTERM to npx', shell: 'sh' },
    { command: 'mock', stop: 'SIGTERM to npx', shell: 'sh' },
    { command: 'proxy', stop: 'Ctrl-C', shell: 'sh' },
    // A script shell that execs a lone command (bash, macOS's /bin/sh): npm then waits for pacu
    // itself, passes the Ctrl-C on a second time, and exits with pacu's code, 0 with no provider finding.
    { command: 'proxy', stop: 'Ctrl-C', shell: '/bin/bash', exit: { code: 0, signal: null } },
  ])(
    '$command, $stop, npm script shell $shell: drained, reported, gone',
    async ({ command, stop, shell, exit }) => {
      const report = path.join(mkdtempSync(path.join(tmpdir(), 'pacu-npx-report-')), 'report.json');
      const args =
        command === 'proxy'
          ? ['proxy', '--upstream', (upstream as Running).info.url as string, '--reporter', `json:${report}`]
          : ['mock', '--coverage-report', report];
      const job = await npx([...args, '--json'], shell === 'sh' ? undefined : shell);
      const control = command === 'proxy' ? (upstream as Running).info.control : job.info.control;
      const answer = await requestInFlight(job.info.url as string, control as string);
      if (stop === 'Ctrl-C') ctrlC(job);
      else job.child.kill('SIGTERM');
      const ended = await job.exit;
      if (exit) expect(ended, job.stderr()).toEqual(exit);
      expect(await answer).toBe(200);
      expect(await until(() => job.processes().length === 0), job.stderr()).toBe(true);
      expect(JSON.parse(readFileSync(report, 'utf8'))).toBeTypeOf('object');
    },
    120_000,
  );
});
