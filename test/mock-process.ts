// `pacu mock` as a child process, for the end-to-end tests that need a real process (restarts, kill -9).
import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { RunningMock } from '../mock/index.ts';
import { PACU_BIN } from './helpers/pacu-bin.ts';

export interface StartedCli {
  child: ChildProcess;
  info: Record<string, string>;
  stderr: () => string;
}

export interface CliLaunch {
  /** Run it on these CPUs only (`taskset -c`), as on a host that gives it one core. */
  cpus?: string;
  env?: NodeJS.ProcessEnv;
}

/** Start `pacu mock --json …` and read the one JSON line it prints. */
export function startCli(args: string[], launch: CliLaunch = {}): Promise<StartedCli> {
  const command = [process.execPath, PACU_BIN, 'mock', '--json', ...args];
  const [program, ...rest] = launch.cpus ? ['taskset', '-c', launch.cpus, ...command] : command;
  const child = spawn(program as string, rest, {
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(launch.env ? { env: launch.env } : {}),
  });
  let stderr = '';
  child.stderr?.on('data', (chunk) => {
    stderr += chunk;
  });
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
    lines.once('line', (line) => resolve({ child, info: JSON.parse(line), stderr: () => stderr }));
    child.once('exit', (code) => reject(new Error(`pacu mock exited with ${code}: ${stderr}`)));
  });
}

/** The started process as `tokenFor` wants a mock: its URL and its demo client. */
export function mockOf(info: Record<string, string>): { url: string; demoClient: RunningMock['demoClient'] } {
  return {
    url: info.url as string,
    demoClient: { clientId: info.clientId as string, clientSecret: info.clientSecret as string, scopes: [] },
  };
}

/** How the process ended: its exit code, or the signal that ended it. */
export function endOf(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
}

export async function exitOf(child: ChildProcess): Promise<number | null> {
  return (await endOf(child)).code;
}
