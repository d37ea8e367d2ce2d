import { linkSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { ConfigError } from '../spec/index.ts';

// A file with one writer (`pacu mock --state FILE`, `--record FILE`): FILE.lock names it. The lock
// is made whole under a private name and linked into place (link fails if the name exists), so no
// one ever reads a half-written lock. A lock whose process is gone is taken over; one held by a
// live process, or by a process on another host that cannot be checked from here, is not.

/** Who holds a file. */
interface Holder {
  pid: number;
  /** The holder's start time in clock ticks since boot (Linux): a reused pid is not the holder. */
  start?: string;
  host: string;
  /** What it is: `pacu mock`, `pacu proxy`. */
  name?: string;
}

/** A file this process holds until `release()`. */
export interface FileLock {
  readonly file: string;
  release(): void;
}

/** Who takes a file, and how a refusal names the file and what to do instead. */
export interface LockTaker {
  /** `pacu mock`, `pacu proxy`: how the next taker's refusal names this one. */
  readonly name: string;
  /** The file as the refusal names it: `the state file`, `the recording`. */
  readonly what: string;
  /** What to do instead: `give another state file`. */
  readonly instead: string;
  /** The refusal's code. */
  readonly code: 'PACU_ERR_CONFIG' | 'PACU_ERR_STATE_FILE';
}

const lockOf = (file: string): string => `${file}.lock`;

/** Field 22 of /proc/PID/stat, or undefined off Linux; the state letter is field 3. */
function procStat(pid: number): { state: string; start: string } | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return fields[19] && fields[0] ? { state: fields[0], start: fields[19] } : undefined;
  } catch {
    return undefined;
  }
}

function readHolder(lock: string): Holder | undefined {
  try {
    const holder = JSON.parse(readFileSync(lock, 'utf8')) as Holder;
    return Number.isInteger(holder.pid) && typeof holder.host === 'string' ? holder : undefined;
  } catch {
    return undefined;
  }
}

/** Whether `holder` still runs: a zombie or a pid reused by a later process does not. */
function alive(holder: Holder): boolean {
  if (holder.host !== hostname()) return true;
  try {
    process.kill(holder.pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  const stat = procStat(holder.pid);
  if (!stat) return true;
  return stat.state !== 'Z' && (holder.start === undefined || holder.start === stat.start);
}

function refuse(file: string, holder: Holder | undefined, taker: LockTaker): never {
  const who = holder
    ? `${holder.name ?? taker.name} pid ${holder.pid}${holder.host === hostname() ? '' : ` on ${holder.host}`}`
    : `another ${taker.name}`;
  throw new ConfigError(
    `pacu: ${taker.what} ${file} is in use by ${who}: stop it first, or ${taker.instead}`,
    {
      code: taker.code,
    },
  );
}

/**
 * Take `file` for this process, or throw a one-line `ConfigError` naming the process that has it.
 * A lock left by a process that is gone (killed, crashed) is taken over.
 */
export function lockFile(file: string, taker: LockTaker): FileLock {
  const lock = lockOf(file);
  const self = procStat(process.pid);
  const mine: Holder = {
    pid: process.pid,
    ...(self ? { start: self.start } : {}),
    host: hostname(),
    name: taker.name,
  };
  const text = `${JSON.stringify(mine)}\n`;
  const draft = `${lock}.${process.pid}.draft`;
  writeFileSync(draft, text, { mode: 0o600 });
  try {
    for (let attempt = 0; attempt < 5; attempt++) {
      try {
        linkSync(draft, lock);
        return {
          file,
          release() {
            if (readHolder(lock)?.pid === process.pid) rmSync(lock, { force: true });
          },
        };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      const holder = readHolder(lock);
      if (holder && alive(holder)) refuse(file, holder, taker);
      takeOver(lock, holder);
    }
    return refuse(file, readHolder(lock), taker);
  } finally {
    rmSync(draft, { force: true });
  }
}

/**
 * Move a stale lock aside, making sure it is the one judged stale: a second taker may have taken
 * the stale lock over in between, and its fresh lock is put back then.
 */
function takeOver(lock: string, stale: Holder | undefined): void {
  const aside = `${lock}.${process.pid}.stale`;
  try {
    renameSync(lock, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  const moved = readHolder(aside);
  const same = moved?.pid === stale?.pid && moved?.start === stale?.start;
  if (!same) {
    try {
      linkSync(aside, lock);
    } catch {
      // A third taker holds the name now; the one moved aside lost it either way.
    }
  }
  rmSync(aside, { force: true });
}
