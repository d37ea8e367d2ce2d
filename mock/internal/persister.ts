import { writeStateFile } from './state-file.ts';
import type { StoreView } from './store.ts';

/** Writes state to its file some time after it changes, one write at a time, and once more on close. */
export interface Persister {
  markDirty(): void;
  flush(): Promise<void>;
  close(): Promise<void>;
}

export function createPersister(
  file: string | undefined,
  current: () => { state: StoreView; now: number },
  intervalMs: number,
  log: (line: string) => void,
): Persister {
  if (!file) return { markDirty() {}, flush: async () => {}, close: async () => {} };
  let dirty = false;
  let timer: NodeJS.Timeout | undefined;
  let writing: Promise<void> = Promise.resolve();

  const write = (): Promise<void> => {
    writing = writing.then(async () => {
      if (!dirty) return;
      dirty = false;
      const { state, now } = current();
      try {
        await writeStateFile(file, state, now);
      } catch (error) {
        dirty = true;
        log((error as Error).message);
      }
    });
    return writing;
  };

  return {
    markDirty() {
      dirty = true;
      if (timer) return;
      timer = setTimeout(() => {
        timer = undefined;
        void write();
      }, intervalMs);
      timer.unref();
    },
    flush() {
      dirty = true;
      return write();
    },
    async close() {
      if (timer) clearTimeout(timer);
      timer = undefined;
      await write();
    },
  };
}
