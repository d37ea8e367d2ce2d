// A process that starts many mocks (a team's test suite, pacu's own) pays Prism's reading of the
// description and the start's full collection once (decision 042), not once per mock.
import { constants, PerformanceObserver } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { startMock } from './index.ts';

/** Start a mock, let Prism load (a request waits for it), and close it. */
async function startAndAnswer(): Promise<void> {
  const mock = await startMock({ log: () => {} });
  try {
    expect((await fetch(`${mock.url}/users`)).status).toBe(401);
  } finally {
    await mock.close();
  }
}

describe('a second mock in the same process', () => {
  it('forces no garbage collection of the heap it shares', async () => {
    await startAndAnswer();
    const forced: number[] = [];
    const observer = new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        const flags = (entry as { detail?: { flags?: number } }).detail?.flags ?? 0;
        if (flags & constants.NODE_PERFORMANCE_GC_FLAGS_FORCED) forced.push(entry.duration);
      }
    });
    observer.observe({ entryTypes: ['gc'] });
    try {
      await startAndAnswer();
      await startAndAnswer();
      // GC entries are delivered on a later turn.
      await new Promise((resolve) => setTimeout(resolve, 50));
    } finally {
      observer.disconnect();
    }
    expect(forced).toEqual([]);
  });
});
