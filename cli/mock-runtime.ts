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

/**
 * The node arguments to run `pacu <args>` again with in a child, or undefined to run here: only the
 * servers (`mock`, `proxy`), only where the default pool outnumbers the CPUs, never when a pool size
 * was chosen already (which keeps the child from relaunching itself) nor under `--inspect`.
 */
export function mockRelaunchArgs(
  args: readonly string[],
  execArgv: readonly string[],
  nodeOptions = '',
  cpus: number = availableParallelism(),
): string[] | undefined {
  if (!RELAUNCHED.has(args[0] ?? '') || args.includes('--help') || args.includes('-h')) return undefined;
  const given = [...execArgv, ...nodeOptions.split(/\s+/)];
  if (given.some((flag) => /^--v8[-_]pool[-_]size\b/.test(flag))) return undefined;
  // Under a debugger, the process being debugged must be the one that serves.
  if (given.some((flag) => /^--inspect/.test(flag))) return undefined;
  if (cpus - 1 >= NODE_DEFAULT_POOL) return undefined;
  return [...execArgv, ...MOCK_NODE_FLAGS];
}
