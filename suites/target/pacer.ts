/**
 * What one run's traffic did: requests sent (resends included), answers that were 429 or 503 and
 * waited out, reads resent after a lost answer.
 */
export interface TrafficStats {
  readonly sent: number;
  readonly throttled: number;
  readonly retried: number;
}

export interface PacerOptions {
  /** Requests per second at most, across the whole run (a token bucket). @default unlimited */
  readonly rate?: number;
  /** Requests in flight at most; the window adapts below it. @default PACER_DEFAULTS.maxInFlight */
  readonly maxInFlight?: number;
}

export const PACER_DEFAULTS = {
  maxInFlight: 64,
  /** The window a run starts with: it doubles each round trip while answers do not queue. */
  startInFlight: 16,
  minInFlight: 2,
} as const;

/**
 * The one gate every request of a run passes: the rate (`--rate`), a pause a 429 or 503 asked for,
 * and an in-flight window that grows while round trips stay near the fastest seen and shrinks when
 * they queue or the target throttles (TCP Vegas' idea: far targets get more in flight, busy ones fewer).
 */
export interface Pacer {
  /**
   * Wait for a slot; call the returned function when the answer is in (a throttled one teaches no
   * round trip). `urgent` (a token the requests holding slots wait for) waits out pauses only.
   */
  acquire(urgent?: boolean): Promise<(roundTripMs: number, throttled?: boolean) => void>;
  /** Everybody waits `ms` (a Retry-After or a backoff); a 429 also halves the rate and the window. */
  pause(ms: number, why: 'throttled' | 'unavailable'): void;
  /** Counted by the client: a request went out, was throttled, or a read was resent. */
  count(what: keyof TrafficStats): void;
  readonly stats: TrafficStats;
  /** Requests per second the run holds to now: `--rate`, or what it learned from 429s. */
  readonly rate: number | undefined;
}

/**
 * Of the rate a throttled run measured, the share it keeps to: a margin for clocks, since pacu
 * times answers when it reads them, after a busy event loop perhaps, not when the limit counted them.
 */
const LEARNED_SHARE = 0.8;
const FIRST_SHARE = 0.7;
/** A throttled episode lasts at least this long, however short its Retry-After. */
const MIN_EPISODE_MS = 1000;
/** How far back accepted answers are remembered (a Retry-After beyond it counts only what is kept). */
const RECENT_MS = 10_000;
/** A learned rate never goes below one request a second. */
const MIN_RATE = 1;

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export function createPacer(options: PacerOptions = {}): Pacer {
  const max = Math.max(1, options.maxInFlight ?? PACER_DEFAULTS.maxInFlight);
  const min = Math.min(PACER_DEFAULTS.minInFlight, max);
  let rate = options.rate;
  let window = Math.min(PACER_DEFAULTS.startInFlight, max);
  let slowStart = true;
  let inFlight = 0;
  let nextSlotAt = 0;
  let pausedUntil = 0;
  let fastest = Infinity;
  let smoothed = 0;
  const waiting: (() => void)[] = [];
  /** Answers the target accepted since the mark: the run's start, then each throttled episode's. */
  let accepted = 0;
  let markAt = performance.now();
  let episodes = 0;
  /** When answers were accepted, over the last few seconds (the window before a first 429). */
  const acceptedAt: number[] = [];
  const stats = { sent: 0, throttled: 0, retried: 0 };

  const wake = (): void => {
    while (waiting.length > 0 && inFlight < Math.floor(window)) {
      inFlight += 1;
      waiting.shift()?.();
    }
  };

  /**
   * Wait for this request's turn under the rate: evenly spaced, and claimed only when it is due, so
   * requests that woke late (a busy event loop) never leave together as a burst.
   */
  const turn = async (): Promise<void> => {
    for (;;) {
      if (rate === undefined) return;
      const now = performance.now();
      const at = Math.max(nextSlotAt, pausedUntil);
      if (at <= now) {
        nextSlotAt = now + 1000 / rate;
        return;
      }
      await sleep(at - now);
    }
  };

  const release = (roundTripMs: number, throttled = false): void => {
    inFlight -= 1;
    if (throttled) {
      wake();
      return;
    }
    accepted += 1;
    const now = performance.now();
    acceptedAt.push(now);
    while ((acceptedAt[0] as number) < now - RECENT_MS) acceptedAt.shift();
    fastest = Math.min(fastest, roundTripMs);
    smoothed = smoothed === 0 ? roundTripMs : smoothed * 0.8 + roundTripMs * 0.2;
    // Answers queue when the smoothed round trip doubles the fastest: the target is busy. (pacu's own
    // work between reads shows in the round trip too: a smaller rise is noise, not a queue.)
    const queueing = smoothed > fastest * 2 + 50;
    if (queueing) {
      slowStart = false;
      window = Math.max(min, window - 0.5 / window);
    } else window = Math.min(max, window + (slowStart ? 1 : 1 / window));
    wake();
  };

  return {
    async acquire(urgent = false) {
      while (performance.now() < pausedUntil) await sleep(pausedUntil - performance.now());
      if (urgent) inFlight += 1;
      else if (inFlight < Math.floor(window)) inFlight += 1;
      else await new Promise<void>((resolve) => waiting.push(resolve));
      if (!urgent) await turn();
      return release;
    },
    pause(ms, why) {
      const now = performance.now();
      // Answers to requests sent before the pause belong to the episode that started it.
      const sameEpisode = now < Math.max(pausedUntil, markAt + MIN_EPISODE_MS);
      pausedUntil = Math.max(pausedUntil, now + ms);
      if (why === 'unavailable' && episodes === 0) {
        // Down for maintenance, a limit refills: measure it from when the target is back, as from a start.
        accepted = 0;
        acceptedAt.length = 0;
        markAt = pausedUntil;
      }
      if (why !== 'throttled' || sameEpisode) return;
      // The limit was empty at the mark and is empty now: what it let through in between came in
      // at its rate. Before the first episode, assume it held at most one Retry-After's worth, at
      // the run's start or one Retry-After ago: either way what it let through since is at most
      // that plus what flowed in, so both quotients are at most its rate; the larger is closer.
      const measured =
        episodes > 0
          ? (accepted * 1000) / Math.max(now - markAt, 1)
          : Math.max(
              (accepted * 1000) / (now - markAt + ms),
              (acceptedAt.filter((at) => at >= now - ms).length * 1000) / (2 * ms),
            );
      // The first estimate rests on an assumption and a short window: a wider margin for it.
      const share = episodes > 0 ? LEARNED_SHARE : FIRST_SHARE;
      const learned = share * Math.max(MIN_RATE, measured);
      rate = Math.max(MIN_RATE, Math.min(rate ?? Infinity, learned));
      episodes += 1;
      accepted = 0;
      markAt = now;
      slowStart = false;
      window = Math.max(min, window / 2);
    },
    count(what) {
      stats[what] += 1;
    },
    get stats() {
      return { ...stats };
    },
    get rate() {
      return rate;
    },
  };
}
