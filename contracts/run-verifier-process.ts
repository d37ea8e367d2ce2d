import { type ChildProcess, fork } from 'node:child_process';
import { createRequire } from 'node:module';
import type { Socket } from 'node:net';
import { pathToFileURL } from 'node:url';
import { PacuError } from '../spec/index.ts';
import { packageFile } from '../spec/package-files.ts';
import type { VerifierJob, VerifierReply } from './verifier-process.ts';

// Compiled (dist/, as installed from npm) the child is plain JS; from the sources it runs through
// tsx, resolved from pacu, not the caller's folder. The tests, which run the sources, name the
// compiled child in PACU_VERIFIER_SCRIPT, as they start the compiled bin (decision 155).
const ENTRY =
  process.env.PACU_VERIFIER_SCRIPT ??
  packageFile(`contracts/verifier-process.${import.meta.url.endsWith('.js') ? 'js' : 'ts'}`);
const execArgv = (): string[] =>
  ENTRY.endsWith('.js')
    ? []
    : ['--import', pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href];

/** How long a child that has answered waits for the next job before it is let go (decision 157). */
const VERIFIER_IDLE_MS = 2_000;

/** A verifier child between jobs: unreferenced, so it never keeps its parent alive. */
interface IdleChild {
  readonly child: ChildProcess;
  /** The environment it was started with: a job reuses only a child started as it would start one. */
  readonly env: string;
  readonly timer: NodeJS.Timeout;
}

const idle: IdleChild[] = [];

/** The environment a verifier child gets: the caller's, less what would make Pact publish or post metrics. */
function childEnv(): NodeJS.ProcessEnv {
  // Pact's verifier would post usage metrics and would publish results when this variable is set:
  // pacu publishes only with --publish, and nothing leaves for anywhere but target and broker.
  const { PACT_BROKER_PUBLISH_VERIFICATION_RESULTS: _publish, ...env } = process.env;
  return { ...env, PACT_DO_NOT_TRACK: 'true' };
}

/** Whether `child` keeps this process alive: while it has a job, and not while it waits for one. */
function hold(child: ChildProcess, held: boolean): void {
  // The stderr pipe is a net.Socket, which the fork's typings call a Readable.
  for (const handle of [child, child.channel, child.stderr as Socket | null])
    if (handle) held ? handle.ref() : handle.unref();
}

function takeIdle(env: string): ChildProcess | undefined {
  const at = idle.findIndex((entry) => entry.env === env && entry.child.connected);
  if (at === -1) return undefined;
  const [entry] = idle.splice(at, 1);
  clearTimeout(entry?.timer);
  return entry?.child;
}

function startChild(env: NodeJS.ProcessEnv): ChildProcess {
  const child = fork(ENTRY, [], { env, execArgv: execArgv(), stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
  // A child that dies between jobs is forgotten; one that dies during a job fails that job (below).
  // Between jobs an 'error' (a disconnect that came too late) means only that: it is gone.
  child.on('error', () => {});
  child.once('exit', () => {
    const at = idle.findIndex((entry) => entry.child === child);
    if (at !== -1) clearTimeout(idle.splice(at, 1)[0]?.timer);
  });
  return child;
}

/** Put `child` aside for the next job; disconnected (it then exits) if none comes in time. */
function release(child: ChildProcess, env: string): void {
  hold(child, false);
  const timer = setTimeout(() => {
    const at = idle.findIndex((entry) => entry.child === child);
    if (at !== -1) idle.splice(at, 1);
    if (child.connected) child.disconnect();
  }, VERIFIER_IDLE_MS).unref();
  idle.push({ child, env, timer });
}

/**
 * Run a verification job in a child process and wait for its reply; its stdout (Pact's own report)
 * is dropped. A child that answered serves the next job that comes within {@link VERIFIER_IDLE_MS}:
 * loading pact-js is most of a verification's cost.
 */
export function runVerifierProcess(job: VerifierJob): Promise<VerifierReply> {
  const env = childEnv();
  const envKey = JSON.stringify(env);
  const child = takeIdle(envKey) ?? startChild(env);
  hold(child, true);
  return new Promise((resolve, reject) => {
    let stderr = '';
    const onStderr = (chunk: Buffer): void => {
      stderr = `${stderr}${chunk.toString('utf8')}`.slice(-4000);
    };
    const settle = (): void => {
      child.stderr?.off('data', onStderr);
      child.off('message', onReply);
      child.off('error', onError);
      child.off('exit', onExit);
    };
    const onReply = (reply: VerifierReply): void => {
      settle();
      release(child, envKey);
      resolve(reply);
    };
    const onError = (cause: Error): void => {
      settle();
      reject(
        new PacuError('PACU_ERR_USAGE', `pacu: cannot start the Pact verifier: ${cause.message}`, { cause }),
      );
    };
    const onExit = (code: number | null): void => {
      settle();
      reject(
        new PacuError(
          'PACU_ERR_USAGE',
          `pacu: the Pact verifier stopped (exit ${code}) without a result: ${stderr.trim().split('\n').at(-1) ?? ''}`,
        ),
      );
    };
    child.stderr?.on('data', onStderr);
    child.on('message', onReply);
    child.on('error', onError);
    child.on('exit', onExit);
    child.send(job);
  });
}
