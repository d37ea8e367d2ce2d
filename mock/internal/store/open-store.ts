import { ConfigError } from '../../../spec/index.ts';
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
  if (resolved.store !== undefined) {
    if (resolved.stateFile)
      throw new ConfigError(
        'pacu: give --state FILE or --store URL, not both: each is where the state lives',
      );
    if (!/^postgres(ql)?:\/\//.test(resolved.store))
      throw new ConfigError(
        `pacu: --store takes memory: or postgres://USER@HOST:PORT/DB, not ${resolved.store.split(':')[0]}:…`,
      );
    const { openPgStore } = await import('./pg/pg-store.ts');
    const recording =
      resolved.fromRecording === undefined
        ? undefined
        : typeof resolved.fromRecording === 'string'
          ? resolved.fromRecording
          : '(options.fromRecording)';
    const store = await openPgStore(
      settings,
      { url: resolved.store, reset: resolved.resetStore, recording },
      initial,
    );
    return { store, collectedAfterLoading: false };
  }
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
