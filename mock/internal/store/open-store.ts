import type { ResolvedMockOptions } from '../../types.ts';
import type { MockState } from '../state.ts';
import { openFileStore } from './file-store.ts';
import { createMemoryStore, type StoreSettings } from './memory-store.ts';
import type { StateStore } from './state-store.ts';

/** A store open for the mock, and whether it collected its loaded heap already. */
export interface OpenedStore {
  store: StateStore;
  collectedAfterLoading: boolean;
}

/**
 * The backend the options name: a file (`stateFile`), or memory. `initial()` is the seeded (or
 * recorded) state a new store starts from.
 */
export async function openStore(
  resolved: ResolvedMockOptions,
  settings: StoreSettings,
  initial: () => MockState,
): Promise<OpenedStore> {
  if (resolved.stateFile) {
    const store = await openFileStore(
      settings,
      { file: resolved.stateFile, fsync: resolved.fsync, compactAfterBytes: resolved.compactAfterBytes },
      initial,
    );
    return { store, collectedAfterLoading: store.collectedAfterLoading };
  }
  return { store: createMemoryStore(settings, initial(), undefined), collectedAfterLoading: false };
}
