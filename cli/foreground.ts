import { spawn } from 'node:child_process';

const FORWARDED = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/**
 * Run `node <args>` as if it were this process: the same stdio, signals passed on, and its exit
 * code (or the signal that ended it) becomes this process's. The child gets its own process group
 * on POSIX, so a Ctrl-C reaches it once (from here), not twice (the second would cut its graceful
 * close short), and an IPC channel, which closes if this process is killed outright: the child
 * then dies at once too (see `bin.ts`) instead of living on as an orphan.
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
