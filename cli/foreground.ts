import { spawn } from 'node:child_process';

const FORWARDED = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/**
 * Run `node <args>` as if it were this process: same stdio, signals passed on, its exit becomes
 * ours. Its own process group, so a Ctrl-C reaches it once, not twice (the second would cut its
 * graceful close short); an IPC channel, so it dies with us instead of living on (see `bin.ts`).
 */
export function runAsChild(
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  command: string = process.execPath,
): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
      detached: process.platform !== 'win32',
      env,
    });
    const forward = (signal: NodeJS.Signals): void => {
      child.kill(signal);
    };
    const release = (): void => {
      for (const signal of FORWARDED) process.off(signal, forward);
    };
    for (const signal of FORWARDED) process.on(signal, forward);
    child.once('error', (error) => {
      release();
      reject(error);
    });
    child.once('exit', (code, signal) => {
      release();
      // Ended by a signal: end the same way, so whoever waits on this process sees what happened.
      if (signal) process.kill(process.pid, signal);
      else resolve(code ?? 1);
    });
  });
}
