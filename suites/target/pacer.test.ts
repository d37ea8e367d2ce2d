import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createPacer, type Pacer } from './pacer.ts';

// A token bucket (a burst, then a steady refill) behind a round trip, on fake time: what a run of
// many workers sending hundreds of requests through one pacer does to it, without a socket or a real second.

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

interface Outcome {
  readonly refused: number;
  readonly refusedAfterFirst: number;
  readonly elapsedMs: number;
  readonly rate: number | undefined;
  readonly measured: boolean | undefined;
}

/**
 * One request through `pacer` to a token bucket (a burst, then a steady refill) a round trip away: whether the bucket took it, and when it reached the bucket.
 */
function bucketSender(pacer: Pacer): () => Promise<{ taken: boolean; sentAt: number; at: number }> {
  let tokens = 40;
  let refilledAt = performance.now();
  return async () => {
    const release = await pacer.acquire();
    const sentAt = performance.now();
    await sleep(50);
    const at = performance.now();
    tokens = Math.min(40, tokens + ((at - refilledAt) / 1000) * 20);
    refilledAt = at;
    const taken = tokens >= 1;
    if (taken) tokens -= 1;
    await sleep(50);
    release(performance.now() - sentAt, !taken);
    return { taken, sentAt, at };
  };
}

async function drive(retryAfterMs: number, requests = 600): Promise<Outcome> {
  const pacer = createPacer();
  const send = bucketSender(pacer);
  let refused = 0;
  let firstRefusedAt: number | undefined;
  let refusedAfterFirst = 0;
  let left = requests;
  const started = performance.now();
  const worker = async (): Promise<void> => {
    while (left > 0) {
      left -= 1;
      for (;;) {
        const { taken, sentAt, at: now } = await send();
        if (taken) break;
        refused += 1;
        if (firstRefusedAt !== undefined) refusedAfterFirst += 1;
        firstRefusedAt ??= now;
        pacer.pause(retryAfterMs, 'throttled', 'seconds', sentAt);
      }
    }
  };
  const done = Promise.all(Array.from({ length: 16 }, worker));
  let finished = false;
  void done.then(() => {
    finished = true;
  });
  while (!finished) await vi.advanceTimersByTimeAsync(10);
  return {
    refused,
    refusedAfterFirst,
    elapsedMs: performance.now() - started,
    rate: pacer.rate,
    measured: pacer.learned.measured,
  };
}

describe('the pacer behind a rate limit', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance', 'Date'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it.each([1000, 2000])(
    'Retry-After %i ms: learns the rate accepted between two 429s, and is refused little after the first',
    async (retryAfterMs) => {
      const outcome = await drive(retryAfterMs);
      expect(outcome.measured).toBe(true);
      // Near the rate the bucket refills at, not the rate of its burst.
      expect(outcome.rate).toBeGreaterThan(17);
      expect(outcome.rate).toBeLessThanOrEqual(20);
      expect(outcome.refusedAfterFirst).toBeLessThanOrEqual(600 * 0.05);
      // The floor the rate sets: the burst at once, the rest at 20 a second.
      expect(outcome.elapsedMs).toBeLessThanOrEqual(1.3 * ((600 - 40) / 20) * 1000);
    },
  );

  it('holds every request during a pause, those already queued for a slot too', async () => {
    const pacer = createPacer({ maxInFlight: 1 });
    const first = await pacer.acquire();
    const queued = pacer.acquire().then(() => performance.now());
    pacer.pause(1500, 'unavailable', 'date');
    first(10);
    await vi.advanceTimersByTimeAsync(2000);
    expect(await queued).toBeGreaterThanOrEqual(1500);
    expect(pacer.learned).toMatchObject({ retryAfter: ['date'], unavailable: 1 });
  });
  it('keeps a guessed rate while the run sends slower than it: no 429 then says nothing', async () => {
    const pacer = createPacer();
    const toBucket = bucketSender(pacer);
    const send = async (): Promise<boolean> => {
      const { taken, sentAt } = await toBucket();
      if (!taken) pacer.pause(1000, 'throttled', 'seconds', sentAt);
      return taken;
    };
    const run = async (): Promise<number | undefined> => {
      // A burst until the first 429, then a client that sends one request a second for 30 s.
      let refused = false;
      const burst = async (): Promise<void> => {
        while (!refused) if (!(await send())) refused = true;
      };
      await Promise.all(Array.from({ length: 8 }, burst));
      const guessed = pacer.rate;
      for (let index = 0; index < 30; index++) {
        await send();
        await sleep(1000);
      }
      expect(pacer.learned.measured).toBe(false);
      return guessed;
    };
    let finished: number | undefined | null = null;
    void run().then((guessed) => {
      finished = guessed;
    });
    while (finished === null) await vi.advanceTimersByTimeAsync(10);
    expect(finished).toBeGreaterThan(0);
    expect(pacer.rate).toBe(finished);
  });
});
