#!/usr/bin/env node
// The `pacu` executable. Compiled to dist/cli/bin.js; `cli/bin.js` runs this file from the sources.
import module from 'node:module';
import { mockRelaunchArgs, RELAUNCHED_ENV } from './mock-runtime.ts';
import { onParentGone, startedByNpm } from './parent-watch.ts';

// Node 22.1+ keeps V8's compiled code of every module on disk between runs (Prism's CommonJS tree is
// most of a mock's start); Node 20, which pacu still supports, has no such cache.
(module as { enableCompileCache?: () => unknown }).enableCompileCache?.();

const args = process.argv.slice(2);
const launcherChannel = process.env[RELAUNCHED_ENV] !== undefined && process.channel !== undefined;
if (launcherChannel) {
  delete process.env[RELAUNCHED_ENV];
  // The launcher's IPC channel closes when it dies, even by SIGKILL. A launcher killed outright was
  // meant to be gone at once: so is the server, as if it had been killed itself (what it
  // acknowledged is in its journal already).
  process.channel?.unref();
  process.once('disconnect', () => process.kill(process.pid, 'SIGKILL'));
} else if (startedByNpm(process.env)) {
  // npm stops its child by a signal to the shell between them, which may die without passing it on.
  onParentGone(() => process.kill(process.pid, 'SIGTERM'));
}
// `pacu mock` and `pacu proxy` want Node flags that only a process start can set (decision 042).
const relaunch = mockRelaunchArgs(args, process.execArgv, process.env.NODE_OPTIONS);
if (relaunch) {
  const { runAsChild } = await import('./foreground.ts');
  const script = process.argv[1] as string;
  process.exitCode = await runAsChild([...relaunch, script, ...args], {
    ...process.env,
    [RELAUNCHED_ENV]: '1',
  }).catch((error: Error) => {
    process.stderr.write(`pacu: cannot start the ${args[0]} process: ${error.message}\n`);
    return 2;
  });
} else {
  // A closed pipe (`pacu spec | head`) is the reader's choice, not an error worth a stack trace.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(0);
    throw error;
  });
  const { main } = await import('./main.ts');
  process.exitCode = await main(args);
}
