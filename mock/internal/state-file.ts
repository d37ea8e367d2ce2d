import { createReadStream, createWriteStream } from 'node:fs';
import { access, rename, rm } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { ConfigError, type Spec } from '../../spec/index.ts';
import type { SnapshotHeader } from '../types.ts';
import {
  applyEntry,
  COLLECTIONS,
  type CollectionName,
  collectionChecks,
  headerProblems,
  snapshotEntries,
} from './snapshot.ts';
import { emptyState, type MockState } from './state.ts';
import type { StoreView } from './store.ts';

// A state file is JSON Lines: the snapshot header, then one `[collection, item]` per line, so a
// million transfers stream in and out without one giant string.

function corrupt(file: string, line: number, why: string): ConfigError {
  return new ConfigError(
    `pacu: state file ${file} is corrupt at line ${line}: ${why}. Fix or delete it, or start without --state`,
    { code: 'PACU_ERR_STATE_FILE' },
  );
}

/** Write state to `file` atomically: a temporary file beside it, renamed over it when complete. */
export async function writeStateFile(file: string, state: StoreView, now: number): Promise<void> {
  const temporary = `${file}.${process.pid}.${Date.now()}.tmp`;
  const out = createWriteStream(temporary, { encoding: 'utf8' });
  const finished = new Promise<void>((resolve, reject) => {
    out.on('error', reject);
    out.on('finish', resolve);
  });
  try {
    const header: SnapshotHeader = { format: 'pacu-mock-state', version: 1, now, seeded: state.seeded };
    let chunk = `${JSON.stringify(header)}\n`;
    for (const entry of snapshotEntries(state)) {
      chunk += `${JSON.stringify(entry)}\n`;
      if (chunk.length > 1 << 20) {
        if (!out.write(chunk)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
        chunk = '';
      }
    }
    out.end(chunk);
    await finished;
    await rename(temporary, file);
  } catch (error) {
    out.destroy();
    await rm(temporary, { force: true });
    throw new ConfigError(`pacu: cannot write state file ${file}: ${(error as Error).message}`, {
      cause: error,
      code: 'PACU_ERR_STATE_FILE',
    });
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
  const lines = createInterface({
    input: createReadStream(file, { encoding: 'utf8' }),
    crlfDelay: Number.POSITIVE_INFINITY,
  });
  let lineNumber = 0;
  let state: MockState | undefined;
  let now = 0;
  try {
    for await (const line of lines) {
      lineNumber++;
      if (line.trim() === '') continue;
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch (error) {
        throw corrupt(file, lineNumber, `not JSON (${(error as Error).message})`);
      }
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
