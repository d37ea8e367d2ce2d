// CPU time of a server and every process under it, from /proc: nginx's master and its worker,
// PostgreSQL's postmaster and its backends (those that exited are in the parent's reaped time).
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/** Clock ticks per second of /proc's CPU times (USER_HZ: 100 on Linux). */
const TICKS_PER_SECOND = 100;

interface ProcStat {
  readonly ppid: number;
  /** utime + stime, in ticks. */
  readonly own: number;
  /** cutime + cstime: the children it has reaped, in ticks. */
  readonly reaped: number;
}

function stat(pid: number): ProcStat | undefined {
  try {
    // Fields after the command name (which may hold spaces): ppid is the 4th, utime..cstime 14th-17th.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return {
      ppid: Number(fields[1]),
      own: Number(fields[11]) + Number(fields[12]),
      reaped: Number(fields[13]) + Number(fields[14]),
    };
  } catch {
    return undefined;
  }
}

/** Every live process, by pid. */
function processes(): Map<number, ProcStat> {
  const all = new Map<number, ProcStat>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const found = stat(Number(name));
    if (found) all.set(Number(name), found);
  }
  return all;
}

/** The pids of `root` and every process below it. */
export function processTree(root: number, all = processes()): number[] {
  const tree = [root];
  for (let index = 0; index < tree.length; index++)
    for (const [pid, info] of all) if (info.ppid === tree[index]) tree.push(pid);
  return tree.filter((pid) => all.has(pid));
}

/** CPU seconds used so far by `root`, its live descendants and every child it reaped. */
export function treeCpuSeconds(root: number): number {
  const all = processes();
  let ticks = 0;
  for (const pid of processTree(root, all)) ticks += (all.get(pid)?.own ?? 0) + (all.get(pid)?.reaped ?? 0);
  return ticks / TICKS_PER_SECOND;
}

/** Pin `root` and every thread of every process below it to `cpus`; later children inherit it. */
export function pinTree(root: number, cpus: string): void {
  for (const pid of processTree(root))
    execFileSync('taskset', ['-a', '-cp', cpus, String(pid)], { stdio: 'ignore' });
}
