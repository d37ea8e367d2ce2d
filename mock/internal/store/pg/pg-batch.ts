/** How long a journal row or a coverage count waits before it is written with the others. */
export const BATCH_MS = 20;

/**
 * Rows written in batches off the answer's path: an insert per request would be a second round
 * trip for every read. `write` takes what piled up; a failed batch is retried with the next one.
 */
export interface Batch<T> {
  add(item: T): void;
  /** Write what is pending now (before a read of the table, and on close); rejects if it could not. */
  flush(): Promise<void>;
}

export function createBatch<T>(write: (items: T[]) => Promise<void>, log: (line: string) => void): Batch<T> {
  let pending: T[] = [];
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  let warned = false;
  const flush = (): Promise<void> => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    const attempt = running.then(async () => {
      if (pending.length === 0) return;
      const items = pending;
      pending = [];
      try {
        await write(items);
        warned = false;
      } catch (error) {
        // The database is away: keep them (up to a bound) for the next batch.
        pending = items.concat(pending).slice(-100_000);
        if (!warned)
          log(`pacu mock: cannot write to the store yet (${(error as Error).message}); kept for later`);
        warned = true;
        throw error;
      }
    });
    running = attempt.catch(() => {});
    return attempt;
  };
  return {
    add(item) {
      pending.push(item);
      if (!timer) {
        timer = setTimeout(() => void flush().catch(() => {}), BATCH_MS);
        timer.unref();
      }
    },
    flush,
  };
}
