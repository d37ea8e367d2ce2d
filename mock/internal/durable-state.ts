import { existsSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { chmod, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Spec } from '../../spec/index.ts';
import { type JournalFile, openJournalFile, STATE_FILE_MODE } from './journal-file.ts';
import { replayJournal } from './journal-replay.ts';
import type { MockState } from './state.ts';
import { readStateFile, writeStateFile } from './state-file.ts';
import { lockStateFile, type StateLock } from './state-lock.ts';
import type { JournalEntry, JournalSink, MockStore } from './store/mock-store.ts';

// `--state FILE` is Redis's AOF with a base file: FILE is a snapshot (JSON Lines), FILE.journal the
// append-only log of every write since. Compaction renames the journal to FILE.journal.1, starts a
// new one, writes a fresh snapshot in the background and then deletes FILE.journal.1. A start reads
// FILE, then FILE.journal.1 (a crash during compaction left it), then FILE.journal.

export interface DurableOptions {
  fsync: boolean;
  /** Compact once the journal is over this size and over the snapshot's size. */
  compactAfterBytes: number;
  log(line: string): void;
}

/** State read back from disk, and the journal the store writes to from now on. */
export interface DurableState {
  /** The state to build the store from (undefined: nothing on disk yet, seed it). */
  readonly loaded: { state: MockState; now: number } | undefined;
  /** Make `store` durable: write a first snapshot if there is none, then journal every write. */
  attach(store: MockStore, now: () => number): Promise<void>;
  /** Resolves once every write so far is in the journal. */
  flush(): Promise<void>;
  /** A compaction under way, if any (tests wait for it). */
  compaction(): Promise<void>;
  close(): Promise<void>;
}

const journalOf = (file: string): string => `${file}.journal`;
const rotatedOf = (file: string): string => `${file}.journal.1`;

/** Temporary files a crash (or an older pacu) left beside the state file. */
function removeLeftovers(file: string, log: (line: string) => void): void {
  const directory = path.dirname(file);
  const base = path.basename(file);
  if (!existsSync(directory)) return;
  for (const name of readdirSync(directory)) {
    if (name === `${base}.tmp` || (name.startsWith(`${base}.`) && /\.\d+\.\d+\.tmp$/.test(name))) {
      rmSync(path.join(directory, name), { force: true });
      log(`pacu mock: removed ${name}, a partial snapshot left by an earlier run`);
    }
  }
}

/** Open `file` as this process's own (see `lockStateFile`): read it back, then journal to it. */
export async function openDurableState(
  file: string,
  spec: Spec,
  options: DurableOptions,
): Promise<DurableState> {
  const lock = lockStateFile(file);
  try {
    return await openLocked(file, spec, options, lock);
  } catch (error) {
    lock.release();
    throw error;
  }
}

async function openLocked(
  file: string,
  spec: Spec,
  options: DurableOptions,
  lock: StateLock,
): Promise<DurableState> {
  removeLeftovers(file, options.log);
  for (const existing of [file, rotatedOf(file), journalOf(file)])
    if (existsSync(existing)) await chmod(existing, STATE_FILE_MODE);
  const snapshot = await readStateFile(file, spec);
  let loaded = snapshot;
  const hadRotated = existsSync(rotatedOf(file));
  for (const journal of [rotatedOf(file), journalOf(file)]) {
    if (!loaded) break; // a journal is only ever written after its first snapshot
    const replayed = await replayJournal(journal, spec, loaded.state, options.log);
    loaded = { state: replayed.state, now: replayed.now ?? loaded.now };
  }

  let journal: JournalFile | undefined;
  let store: MockStore | undefined;
  let clockNow: () => number = Date.now;
  let running: Promise<void> | undefined;
  let broken = false;
  let closing = false;

  // Known without a stat per request: only this module writes the snapshot.
  const sizeOnDisk = (): number => (existsSync(file) ? statSync(file).size : 0);
  let snapshotBytes = sizeOnDisk();
  const compact = async (): Promise<void> => {
    if (!journal || !store) return;
    journal.close({ sync: false });
    renameSync(journalOf(file), rotatedOf(file));
    journal = openJournalFile(journalOf(file), options.fsync);
    const written = await writeStateFile(file, store.view, clockNow(), () => closing);
    if (written) await rm(rotatedOf(file), { force: true });
    snapshotBytes = sizeOnDisk();
  };
  const maybeCompact = (): void => {
    if (running || broken || closing || !journal) return;
    if (journal.bytes < options.compactAfterBytes || journal.bytes < snapshotBytes) return;
    running = compact()
      .catch((error) => {
        broken = true;
        options.log(
          `pacu mock: compaction failed, the journal keeps growing until a restart: ${(error as Error).message}`,
        );
      })
      .finally(() => {
        running = undefined;
      });
  };

  // The store holds this sink for good; it forwards to whichever journal file is current.
  const sink: JournalSink = {
    append(entry: JournalEntry) {
      (journal as JournalFile).append(entry);
    },
    committed() {
      const committed = (journal as JournalFile).committed();
      if (committed) maybeCompact();
      return committed;
    },
  };

  return {
    loaded,
    async attach(target, now) {
      store = target;
      clockNow = now;
      // No snapshot yet, or a compaction was cut short: start from a fresh snapshot of everything.
      if (!snapshot || hadRotated) {
        await writeStateFile(file, target.view, now());
        await rm(rotatedOf(file), { force: true });
        await rm(journalOf(file), { force: true });
        snapshotBytes = sizeOnDisk();
      }
      journal = openJournalFile(journalOf(file), options.fsync);
      target.attachJournal(sink);
    },
    flush: async () => {
      await sink.committed();
    },
    compaction: () => running ?? Promise.resolve(),
    async close() {
      closing = true;
      await running;
      journal?.close();
      lock.release();
    },
  };
}
