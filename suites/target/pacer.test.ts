import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { seededRandom } from '../../mock/internal/random.ts';
import { createPacer, PACER_DEFAULTS, type Pacer } from './pacer.ts';

// A token bucket (a burst, then a steady refill) behind a round trip, on fake time: what a run of
// many workers sending hundreds of requests through one pacer does to it, without a socket or a real second.

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** The way to the bucket (drawn per request: jitter reorders requests) and back from the sandbox. */
interface Network {
  readonly toBucketMs: () => number;
  readonly backMs: number;
}

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
function bucketSender(
  pacer: Pacer,
  network: Network = { toBucketMs: () => 50, backMs: 50 },
): () => Promise<{ taken: boolean; sentAt: number; at: number }> {
  let tokens = 40;
  let refilledAt = performance.now();
  return async () => {
    const release = await pacer.acquire();
    const sentAt = performance.now();
    await sleep(network.toBucketMs());
    const at = performance.now();
    tokens = Math.min(40, tokens + ((at - refilledAt) / 1000) * 20);
    refilledAt = at;
    const taken = tokens >= 1;
    if (taken) tokens -= 1;
    // A sandbox's front refuses at once; an accepted request goes on to the sandbox and back.
    await sleep(taken ? network.backMs : 0);
    release(performance.now() - sentAt, !taken);
    return { taken, sentAt, at };
  };
}

async function drive(
  retryAfterMs: number,
  { requests = 600, workers = 16, network }: { requests?: number; workers?: number; network?: Network } = {},
): Promise<Outcome> {
  const pacer = createPacer();
  const send = bucketSender(pacer, network);
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
  const done = Promise.all(Array.from({ length: workers }, worker));
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

  it('with more workers than the burst, 40-120 ms from it: a first 429 catches few requests in flight', async () => {
    // The realistic front of a sandbox (bench/remote.ts' polite rows): jitter, a prompt 429.
    const random = seededRandom(28);
    const network = { toBucketMs: () => 40 + 80 * random(), backMs: 5 };
    const outcome = await drive(1000, { requests: 450, workers: 128, network });
    expect(outcome.refusedAfterFirst).toBeLessThanOrEqual(450 * 0.05);
    expect(outcome.elapsedMs).toBeLessThanOrEqual(1.3 * ((450 - 40) / 20) * 1000);
  });

  it('a far target without a limit: the window still opens to its maximum', async () => {
    const pacer = createPacer();
    let inFlight = 0;
    let most = 0;
    let left = 600;
    const worker = async (): Promise<void> => {
      while (left-- > 0) {
        const release = await pacer.acquire();
        most = Math.max(most, ++inFlight);
        await sleep(100);
        inFlight -= 1;
        release(100);
      }
    };
    let finished = false;
    void Promise.all(Array.from({ length: 128 }, worker)).then(() => {
      finished = true;
    });
    while (!finished) await vi.advanceTimersByTimeAsync(10);
    expect(most).toBe(PACER_DEFAULTS.maxInFlight);
  });

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
