import { StoreUnavailableError } from '../store-unavailable.ts';

/** How many grouped statements may be on the wire at once, and how many items one may carry. */
export const GROUPED = { inFlight: 2, most: 256 } as const;

interface Waiting<I, O> {
  readonly item: I;
  resolve(value: O): void;
  reject(error: unknown): void;
}

/**
 * Writes that arrive together, sent as one statement: nothing waits while a connection is free,
 * and what arrives while every one is busy goes out with the next statement, so a busy replica
 * commits many writes for one round trip. Two items with one `key` never share a statement.
 * A statement that fails for one of its items (not the database being away) is tried item by item.
 */
export function grouped<I, O>(
  send: (items: readonly I[]) => Promise<O[]>,
  key: (item: I) => string,
  limits: { inFlight: number; most: number } = GROUPED,
): (item: I) => Promise<O> {
  let queue: Array<Waiting<I, O>> = [];
  let busy = 0;

  const settle = async (group: Array<Waiting<I, O>>): Promise<void> => {
    try {
      const results = await send(group.map((waiting) => waiting.item));
      for (const [index, waiting] of group.entries()) waiting.resolve(results[index] as O);
    } catch (error) {
      if (group.length === 1 || error instanceof StoreUnavailableError)
        for (const waiting of group) waiting.reject(error);
      else for (const waiting of group) await settle([waiting]);
    }
  };

  const pump = (): void => {
    while (busy < limits.inFlight && queue.length > 0) {
      const group: Array<Waiting<I, O>> = [];
      const later: Array<Waiting<I, O>> = [];
      const keys = new Set<string>();
      for (const waiting of queue) {
        const k = key(waiting.item);
        if (group.length >= limits.most || keys.has(k)) later.push(waiting);
        else {
          keys.add(k);
          group.push(waiting);
        }
      }
      queue = later;
      busy += 1;
      void settle(group).finally(() => {
        busy -= 1;
        pump();
      });
    }
  };

  return (item) =>
    new Promise<O>((resolve, reject) => {
      queue.push({ item, resolve, reject });
      pump();
    });
}
