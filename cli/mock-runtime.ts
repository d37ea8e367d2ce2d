import { availableParallelism } from 'node:os';

/**
 * The Node flags `pacu mock` and `pacu proxy` run with: `--v8-pool-size=0` sizes V8's helper threads
 * to the CPUs this process may use instead of four, which on one core took turns with the thread that
 * answers (decision 042). The bench runs its servers with the same flags.
 */
export const MOCK_NODE_FLAGS: readonly string[] = ['--v8-pool-size=0'];

/** The commands that serve until stopped: a pinned core shared with four GC helpers hurts their tail. */
const RELAUNCHED = new Set(['mock', 'proxy']);

/** How many V8 helper threads Node starts when the pool size is left alone. */
const NODE_DEFAULT_POOL = 4;

/** Set in the relaunched process, so it knows its parent is a launcher that may vanish. */
export const RELAUNCHED_ENV = 'PACU_MOCK_RELAUNCHED';

/** Whether `pacu mock <args>` serves a shared store (`--store postgres://…`, or PACU_STORE without the flag). */
function sharedStore(args: readonly string[], storeEnv: string | undefined): boolean {
  const at = args.findIndex((arg) => arg === '--store' || arg.startsWith('--store='));
  const url =
    at === -1 ? storeEnv : (args[at] as string).startsWith('--store=') ? args[at]?.slice(8) : args[at + 1];
  return /^postgres(ql)?:/.test(url ?? '');
}

/**
 * The node arguments to run `pacu <args>` again with in a child, or undefined to run here: only the
 * servers, where the default pool outnumbers the CPUs, never when a pool size was chosen (so the
 * child does not relaunch), under `--inspect`, or for a replica of a shared store (decision 189).
 */
export function mockRelaunchArgs(
  args: readonly string[],
  execArgv: readonly string[],
  nodeOptions = '',
  cpus: number = availableParallelism(),
  storeEnv: string | undefined = process.env.PACU_STORE,
): string[] | undefined {
  if (!RELAUNCHED.has(args[0] ?? '') || args.includes('--help') || args.includes('-h')) return undefined;
  if (args[0] === 'mock' && sharedStore(args, storeEnv)) return undefined;
  const given = [...execArgv, ...nodeOptions.split(/\s+/)];
  if (given.some((flag) => /^--v8[-_]pool[-_]size\b/.test(flag))) return undefined;
  // Under a debugger, the process being debugged must be the one that serves.
  if (given.some((flag) => /^--inspect/.test(flag))) return undefined;
  if (cpus - 1 >= NODE_DEFAULT_POOL) return undefined;
  return [...execArgv, ...MOCK_NODE_FLAGS];
}
