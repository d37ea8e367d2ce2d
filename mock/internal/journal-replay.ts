import { access, truncate } from 'node:fs/promises';
import type { Spec } from '../../spec/index.ts';
import type { SeededIds } from '../types.ts';
import { corrupt, readJsonLines } from './json-lines.ts';
import { COLLECTIONS, type CollectionName, collectionChecks } from './snapshot.ts';
import { emptyState, type MockState } from './state.ts';
import { type JournalEntry, MockStore } from './store/mock-store.ts';

const isCollection = (value: unknown): value is CollectionName =>
  COLLECTIONS.includes(value as CollectionName);

/** Why a journal line is not an entry the store could have written, or undefined. */
function entryProblem(spec: Spec, value: unknown): string | undefined {
  if (!Array.isArray(value)) return 'not a journal entry';
  const [op, first, second] = value as unknown[];
  if (op === 'put') {
    if (!isCollection(first)) return `unknown collection ${JSON.stringify(first)}`;
    const issues = collectionChecks(spec)[first](second);
    return issues.length > 0
      ? `${first} item: ${issues.map((i) => `${i.path} ${i.message}`).join('; ')}`
      : undefined;
  }
  if (op === 'del') return isCollection(first) && typeof second === 'string' ? undefined : 'bad del entry';
  if (op === 'now') return Number.isFinite(first) ? undefined : 'the clock is not a finite number';
  if (op === 'clear') {
    const header = first as { now?: unknown; seeded?: unknown } | null;
    return header &&
      Number.isFinite(header.now) &&
      typeof header.seeded === 'object' &&
      header.seeded !== null
      ? undefined
      : 'bad clear entry';
  }
  return `unknown journal operation ${JSON.stringify(op)}`;
}

export interface Replayed {
  state: MockState;
  /** The mock clock the journal last recorded, if it recorded one. */
  now: number | undefined;
  entries: number;
}

/**
 * Apply the journal `file` on top of `state`, line by line. A last line without its newline is
 * what a crash in the middle of a write leaves: it was never acknowledged, so it is dropped, the
 * file is cut back to the last whole line, and `log` says so. Any other bad line stops the start.
 */
export async function replayJournal(
  file: string,
  spec: Spec,
  start: MockState,
  log: (line: string) => void,
): Promise<Replayed> {
  let state = start;
  let now: number | undefined;
  let entries = 0;
  try {
    await access(file);
  } catch {
    return { state, now, entries };
  }
  const fresh = (seeded: SeededIds): MockState => emptyState(seeded);
  let torn: { wholeBytes: number; rest: string; lastNumber: number } | undefined;
  // A last line without its newline was never acknowledged: it is not read.
  for await (const { number, value } of readJsonLines(file, (end) => {
    torn = end;
    return undefined;
  })) {
    const problem = entryProblem(spec, value);
    if (problem) throw corrupt(file, number, problem);
    const entry = value as JournalEntry;
    if (entry[0] === 'now') now = entry[1];
    if (entry[0] === 'clear') now = entry[1].now;
    state = MockStore.replay(state, entry, fresh);
    entries++;
  }
  if (torn) {
    log(
      `pacu mock: state journal ${file}: ignored a torn last line (${Buffer.byteLength(torn.rest)} bytes, never acknowledged) left by a crash; the file is cut back to line ${torn.lastNumber}`,
    );
    await truncate(file, torn.wholeBytes);
  }
  return { state, now, entries };
}
