import { execFile } from 'node:child_process';
import { constants } from 'node:fs';
import { access, type FileHandle, open, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { ConfigError, type Spec } from '../../spec/index.ts';
import type { SnapshotHeader } from '../types.ts';
import { STATE_FILE_MODE } from './journal-file.ts';
import { corrupt, readJsonLines } from './json-lines.ts';
import {
  applyEntry,
  COLLECTIONS,
  type CollectionName,
  collectionChecks,
  headerProblems,
  snapshotEntries,
} from './snapshot.ts';
import { emptyState, type MockState } from './state.ts';
import type { StoreView } from './store/mock-store.ts';

// A state file is JSON Lines: the snapshot header, then one `[collection, item]` per line, so a
// million transfers stream in and out without one giant string.

/** The one temporary file a snapshot is written to; a start removes it if a crash left it. */
export const snapshotTemporary = (file: string): string => `${file}.tmp`;

/**
 * Text written per turn of the event loop while compacting: building it blocks every answer, so a
 * turn builds 64 KiB (the old slice was a megabyte of JSON.stringify per turn).
 */
const SNAPSHOT_SLICE_CHARS = 64 * 1024;

const yieldToRequests = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Linux's O_TMPFILE: a file with no name in its folder until it is linked there (open(2)). */
const O_TMPFILE = 0o20200000;
/** Whether this host names an unnamed file (O_TMPFILE, /proc and `ln -L`); found out at the first snapshot. */
let unnamedWorks = process.platform === 'linux';

/**
 * A snapshot written into a file with no name, so a kill -9 mid-write leaves no partial copy of the
 * state behind. It is named once whole and synced: node's link() cannot follow /proc's link to an
 * unnamed file; coreutils' `ln -L` does (linkat with AT_SYMLINK_FOLLOW).
 */
async function openUnnamed(directory: string): Promise<FileHandle | undefined> {
  if (!unnamedWorks) return undefined;
  try {
    return await open(directory, O_TMPFILE | constants.O_RDWR, STATE_FILE_MODE);
  } catch {
    unnamedWorks = false;
    return undefined;
  }
}

async function nameUnnamed(handle: FileHandle, name: string): Promise<void> {
  await rm(name, { force: true });
  try {
    await promisify(execFile)('ln', ['-L', `/proc/${process.pid}/fd/${handle.fd}`, name]);
  } catch (error) {
    unnamedWorks = false;
    throw error;
  }
}

/**
 * Write a snapshot of `state` to `file` atomically and in the background: into a file with no name
 * (else `<file>.tmp`), 0600, 64 KiB a turn of the event loop, fsynced, named `<file>.tmp` once whole
 * and renamed over `file`. `aborted()` stops it early; the temporary file is removed on any failure,
 * and a kill -9 leaves at most a whole one.
 */
export async function writeStateFile(
  file: string,
  state: StoreView,
  now: number,
  aborted: () => boolean = () => false,
): Promise<boolean> {
  if (!Number.isFinite(now)) throw new Error(`refusing to write a state whose clock is ${now}`);
  const temporary = snapshotTemporary(file);
  let handle: FileHandle | undefined;
  let naming = false;
  try {
    const unnamed = await openUnnamed(path.dirname(path.resolve(file)));
    naming = unnamed !== undefined;
    handle = unnamed ?? (await open(temporary, 'w', STATE_FILE_MODE));
    const header: SnapshotHeader = {
      format: 'pacu-mock-state',
      version: 1,
      now,
      seeded: { ...state.seeded },
    };
    let chunk = `${JSON.stringify(header)}\n`;
    for (const entry of snapshotEntries(state)) {
      chunk += `${JSON.stringify(entry)}\n`;
      if (chunk.length > SNAPSHOT_SLICE_CHARS) {
        await handle.write(chunk);
        chunk = '';
        await yieldToRequests();
        if (aborted()) throw new Error('aborted');
      }
    }
    await handle.write(chunk);
    await handle.sync();
    if (unnamed) await nameUnnamed(unnamed, temporary);
    await handle.close();
    handle = undefined;
    await rename(temporary, file);
    await syncDirectory(path.dirname(file));
    return true;
  } catch (error) {
    await handle?.close().catch(() => {});
    await rm(temporary, { force: true });
    if ((error as Error).message === 'aborted') return false;
    // This host could not name the unnamed file after all: write it again the named way.
    if (naming && !unnamedWorks) return writeStateFile(file, state, now, aborted);
    throw new ConfigError(`pacu: cannot write state file ${file}: ${(error as Error).message}`, {
      cause: error,
      code: 'PACU_ERR_STATE_FILE',
    });
  }
}

/** fsync a directory, so a rename in it survives power loss. */
async function syncDirectory(directory: string): Promise<void> {
  const handle = await open(directory, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Read a state file, or undefined when there is none yet. Anything unreadable is an error naming the file. */
export async function readStateFile(
  file: string,
  spec: Spec,
): Promise<{ state: MockState; now: number } | undefined> {
  try {
    await access(file);
  } catch {
    return undefined;
  }
  const checks = collectionChecks(spec);
  let lineNumber = 0;
  let state: MockState | undefined;
  let now = 0;
  try {
    // A snapshot is written whole: its last line may end without a newline.
    for await (const { number, value } of readJsonLines(file, (end) => end.rest)) {
      lineNumber = number;
      if (!state) {
        const problems = headerProblems(value);
        if (problems.length > 0)
          throw corrupt(file, lineNumber, `not a pacu mock state header (${problems.join('; ')})`);
        const header = value as SnapshotHeader;
        state = emptyState(header.seeded);
        now = header.now;
        continue;
      }
      const [collection, item] = Array.isArray(value) ? value : [];
      if (!COLLECTIONS.includes(collection))
        throw corrupt(file, lineNumber, `unknown collection ${JSON.stringify(collection)}`);
      const issues = checks[collection as CollectionName](item);
      if (issues.length > 0) {
        throw corrupt(
          file,
          lineNumber,
          `${collection} item: ${issues.map((i) => `${i.path} ${i.message}`).join('; ')}`,
        );
      }
      applyEntry(state, collection as CollectionName, item);
    }
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    throw new ConfigError(`pacu: cannot read state file ${file}: ${(error as Error).message}`, {
      cause: error,
      code: 'PACU_ERR_STATE_FILE',
    });
  }
  if (!state) throw corrupt(file, lineNumber, 'the file is empty');
  return { state, now };
}
