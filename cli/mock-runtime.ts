import { availableParallelism } from 'node:os';

/**
 * The Node flags `pacu mock` and `pacu proxy` run with. `--v8-pool-size=0` lets Node size V8's helper threads to
 * the CPUs this process may use (affinity and cgroup aware) instead of its fixed default of four.
 * Pinned to one core, four garbage-collector helpers took turns with the thread that answers:
 * while they marked, it ran a fifth of the time, and a young store's POST p99 was 9-14 ms instead
 * of 5-7 ms (decision 042). The bench runs its servers with the same flags.
 */
export const MOCK_NODE_FLAGS: readonly string[] = ['--v8-pool-size=0'];

/** The commands that serve until stopped: a pinned core shared with four GC helpers hurts their tail. */
const RELAUNCHED = new Set(['mock', 'proxy']);

/** How many V8 helper threads Node starts when the pool size is left alone. */
const NODE_DEFAULT_POOL = 4;

/** Set in the relaunched process, so it knows its parent is a launcher that may vanish. */
export const RELAUNCHED_ENV = 'PACU_MOCK_RELAUNCHED';

/**
 * The node arguments to run `pacu <args>` again with, in a child process, or undefined to run in
 * this one. Only the long-running servers, `pacu mock` and `pacu proxy`, are relaunched, only where Node's default pool would be
 * more helpers than spare CPUs, and never when a pool size was chosen already, on the command line
 * or in NODE_OPTIONS (which is also what keeps the child from relaunching itself), nor under
 * `--inspect`.
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
