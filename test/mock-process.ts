// `pacu mock` as a child process, for the end-to-end tests that need a real process (restarts, kill -9).
import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { RunningMock } from '../mock/index.ts';

const BIN = new URL('../cli/bin.js', import.meta.url).pathname;

export interface StartedCli {
  child: ChildProcess;
  info: Record<string, string>;
  stderr: () => string;
}

/** Start `pacu mock --json …` and read the one JSON line it prints. */
export function startCli(args: string[]): Promise<StartedCli> {
  const child = spawn(process.execPath, [BIN, 'mock', '--json', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
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

export function exitOf(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}
