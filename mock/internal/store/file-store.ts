import { COLLECT_AFTER_LOADING, collectGarbage } from '../collect-garbage.ts';
import { openDurableState } from '../durable-state.ts';
import type { MockState } from '../state.ts';
import { createMemoryStore, type MemoryStore, type StoreSettings } from './memory-store.ts';

/** What the file store needs beside the common settings: decision 041's knobs. */
export interface FileStoreOptions {
  file: string;
  fsync: boolean;
  compactAfterBytes: number;
}

/** Whether the file store collected its loaded heap already (then the mock skips its own start collection). */
export interface FileStore extends MemoryStore {
  readonly collectedAfterLoading: boolean;
}

/**
 * `--state FILE`: the memory store, read back from FILE and its journal at start, with every write
 * journaled before its answer leaves (decisions 011 and 041: the lock, group commit, compaction,
 * a torn last line cut off). `initial()` seeds a file that does not exist yet.
 */
export async function openFileStore(
  settings: StoreSettings,
  options: FileStoreOptions,
  initial: () => MockState,
): Promise<FileStore> {
  const durable = await openDurableState(options.file, settings.spec, {
    fsync: options.fsync,
    compactAfterBytes: options.compactAfterBytes,
    log: settings.log,
  });
  const loaded = durable.loaded;
  const memory = createMemoryStore(settings, loaded?.state ?? initial(), loaded?.now, 'file');
  try {
    await durable.attach(memory.maps, () => memory.clock.now());
  } catch (error) {
    await memory.close();
    await durable.close();
    throw error;
  }
  const { transfers, payouts, pushToCard } = memory.maps.view;
  // A big state is collected once now, before the mock listens (decision 041).
  const collectedAfterLoading =
    loaded !== undefined && transfers.size + payouts.size + pushToCard.size >= COLLECT_AFTER_LOADING;
  if (collectedAfterLoading) collectGarbage();
  const closeMemory = memory.close;
  return Object.assign(memory, {
    collectedAfterLoading,
    async close() {
      await closeMemory();
      await durable.close();
    },
  });
}
