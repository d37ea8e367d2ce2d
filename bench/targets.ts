import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { createInterface, type Interface } from 'node:readline';
import { MOCK_NODE_FLAGS } from '../cli/mock-runtime.ts';
import { DEFAULT_SPEC_FILE } from '../spec/index.ts';
import { freePort } from '../test/helpers/free-port.ts';

const ROOT = new URL('..', import.meta.url).pathname;

export interface MemoryFigures {
  maxRssBytes?: number;
  settledRssBytes?: number;
}

/** A server under test in a child process. */
export interface Target {
  name: string;
  origin: string;
  /** Prefix of the interface's paths: `/v3`, except `prism mock`, which serves them at the root. */
  basePath: string;
  info: Record<string, string>;
  /** Its process (taskset execs it), whose CPU time the load runs read. */
  pid?: number;
  /** Stop it; resolves with its peak and settled RSS when it reports them. */
  stop(): Promise<MemoryFigures>;
}

function firstJsonLine(lines: Interface, child: ChildProcess, name: string): Promise<Record<string, string>> {
  return new Promise((resolve, reject) => {
    let stderr = '';
    child.stderr?.on('data', (chunk) => {
      stderr += chunk;
    });
    lines.once('line', (line) => resolve(JSON.parse(line)));
    child.once('exit', (code) => reject(new Error(`${name} exited with ${code}: ${stderr.slice(-500)}`)));
  });
}

function stopper(child: ChildProcess, lines: Interface): () => Promise<MemoryFigures> {
  return () =>
    new Promise((resolve) => {
      let figures: MemoryFigures = {};
      lines.on('line', (line) => {
        figures = JSON.parse(line) as MemoryFigures;
      });
      child.once('exit', () => resolve(figures));
      child.kill('SIGTERM');
    });
}

/** The server side of every run: core 0. The load generator gets core 1. */
export const SERVER_CPU = '0';
export const LOAD_CPU = '1';

/**
 * Start a server script of the bench (`bench/servers/`) on `cpu`, {@link SERVER_CPU} by default (it
 * prints one JSON line with its origin), with the Node flags `pacu mock` runs with: the baseline and
 * the mock alike. The scripts are plain JavaScript on the built package (`dist/`, which `npm run
 * bench` builds), run by node as users run pacu: tsx's loader thread would compete for the core.
 */
export async function startScript(
  name: string,
  script: string,
  args: string[] = [],
  cpu = SERVER_CPU,
  root = ROOT,
): Promise<Target> {
  if (!existsSync(path.join(root, 'dist', 'index.js')))
    throw new Error('the bench runs the built package: npm run build first (npm run bench does)');
  const node = [process.execPath, ...MOCK_NODE_FLAGS, '--expose-gc', script, ...args];
  const child = spawn('taskset', ['-c', cpu, ...node], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  const info = await firstJsonLine(lines, child, name);
  return {
    name,
    origin: info.origin as string,
    basePath: '/v3',
    info,
    ...(child.pid ? { pid: child.pid } : {}),
    stop: stopper(child, lines),
  };
}

/** Start a Prism command (`mock`, `proxy`) on core 0 and wait until it answers on its port. */
async function startPrismCommand(name: string, args: string[]): Promise<Target> {
  const port = await freePort();
  const child = spawn(
    'taskset',
    ['-c', SERVER_CPU, `${ROOT}node_modules/.bin/prism`, ...args, '-h', '127.0.0.1', '-p', String(port)],
    // Prism logs every request: to nowhere, so a full pipe never holds it up.
    { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const origin = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${name} exited with ${child.exitCode}`);
    try {
      await fetch(`${origin}/users`);
      break;
    } catch {
      if (Date.now() > deadline) throw new Error(`${name} did not start within 60 s`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  return {
    ...(child.pid ? { pid: child.pid } : {}),
    name,
    origin,
    // Prism serves the description's paths at its root.
    basePath: '',
    info: {},
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', () => resolve({}));
        child.kill('SIGTERM');
      }),
  };
}

/** `prism mock` from @stoplight/prism-cli on the same spec, on a free port. */
export const startPrism = (specFile: string): Promise<Target> =>
  startPrismCommand('prism mock', ['mock', specFile]);

/**
 * `prism proxy` from @stoplight/prism-cli: Prism's own validating proxy (requests and answers checked
 * against the description, violations logged) in front of `upstream`, the base URL ending in /v3.
 */
export const startPrismProxy = (upstream: string, specFile = DEFAULT_SPEC_FILE): Promise<Target> =>
  startPrismCommand('prism proxy', ['proxy', specFile, upstream]);
