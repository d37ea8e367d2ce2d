// `pacu proxy` as a child process, for the end-to-end tests that need a real process (signals,
// kill -9, a client in another process than the server).
import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { PACU_BIN } from './pacu-bin.ts';

export interface StartedProxy {
  child: ChildProcess;
  /** The JSON line `--json` prints: url, upstream, control, profile, record. */
  info: { url: string; upstream: string; [key: string]: string };
  stderr: () => string;
  stdout: () => string;
  /** The exit code (or -1 when a signal ended it). */
  exit: Promise<number>;
}

/** Start `pacu proxy --json …` and read the line it prints once it listens. */
export function startProxyCli(args: string[], env: NodeJS.ProcessEnv = {}): Promise<StartedProxy> {
  const child = spawn(process.execPath, [PACU_BIN, 'proxy', '--json', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NO_COLOR: '1', ...env },
  });
  let stderr = '';
  let stdout = '';
  child.stderr?.on('data', (chunk) => {
    stderr += chunk;
  });
  const exit = new Promise<number>((resolve) => child.once('exit', (code) => resolve(code ?? -1)));
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
    let first = true;
    lines.on('line', (line) => {
      stdout += `${line}\n`;
      if (!first) return;
      first = false;
      resolve({ child, info: JSON.parse(line), stderr: () => stderr, stdout: () => stdout, exit });
    });
    child.once('exit', (code) => reject(new Error(`pacu proxy exited with ${code}: ${stderr}`)));
  });
}
