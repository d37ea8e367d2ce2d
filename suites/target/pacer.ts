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
  /** The window a run starts with: it grows each round trip while answers do not queue (decision 191). */
  startInFlight: 12,
  minInFlight: 2,
  /**
   * In flight at most this share of the answers accepted so far (never below the start): a rate
   * limit's burst is spent before the window outgrows it, so its first 429 catches few in flight.
   */
  acceptedShare: 1 / 3,
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
  /**
   * Everybody waits `ms` (a Retry-After or a backoff), those already queued too; a 429 that opens an
   * episode also teaches the rate and halves the window. `form`: how the Retry-After was written;
   * `sentAt`: when the refused request left (performance.now()), which tells the episodes apart.
   */
  pause(ms: number, why: 'throttled' | 'unavailable', form?: RetryAfterForm, sentAt?: number): void;
  /** Counted by the client: a request went out, was throttled, or a read was resent. */
  count(what: keyof TrafficStats): void;
  readonly stats: TrafficStats;
  /** Requests per second the run holds to now: `--rate`, or what it learned from 429s. */
  readonly rate: number | undefined;
  /** What the run learned of the target's limits, for the report. */
  readonly learned: PacingLearned;
}

/** How a Retry-After was written (RFC 9110 10.2.3): delay-seconds or an HTTP date. */
export type RetryAfterForm = 'seconds' | 'date';

/** What pacing learned of a target: the rate it accepts, how it asks to wait, how often it was down. */
export interface PacingLearned {
  /** Requests a second the run kept to after its 429s (absent when none came). */
  readonly perSecond?: number;
  /** Whether that rate was measured between two 429s (else it is a first guess that held). */
  readonly measured?: boolean;
  /** Throttled episodes: runs of 429s each answered to requests already in flight. */
  readonly episodes?: number;
  /** The forms of Retry-After the target used. */
  readonly retryAfter: readonly RetryAfterForm[];
  /** 503 answers waited out (maintenance). */
  readonly unavailable: number;
}

/** Of the rate measured over a throttled episode, the share a run keeps to: a margin for jitter and clocks. */
const LEARNED_SHARE = 0.95;
/** How far back accepted requests are remembered, by when they were sent. */
const RECENT_MS = 60_000;
/** A learned rate never goes below one request a second. */
const MIN_RATE = 1;
/** Recent stretches of sending the first guess of a rate is read over (the burst began in one of them). */
const STRETCHES_MS = [250, 500, 1000, 2000, 4000];
/**
 * A rate not yet measured rises by a tenth this often while nothing is refused: if it was under the
 * provider's, the next 429 measures the real one.
 */
const PROBE_EVERY_MS = 2000;
const PROBE_STEP = 1.1;
/** The share of a guessed rate a run must have sent at for its quiet to say the guess may be low. */
const BINDING_SHARE = 0.8;

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export function createPacer(options: PacerOptions = {}): Pacer {
  const max = Math.max(1, options.maxInFlight ?? PACER_DEFAULTS.maxInFlight);
  const min = Math.min(PACER_DEFAULTS.minInFlight, max);
  const ceiling = options.rate;
  let rate = options.rate;
  let window = Math.min(PACER_DEFAULTS.startInFlight, max);
  let slowStart = true;
  let inFlight = 0;
  let accepted = 0;
  let nextSlotAt = 0;
  let pausedUntil = 0;
  let fastest = Infinity;
  let smoothed = 0;
  const waiting: (() => void)[] = [];
  /** When each accepted request was sent, over the last minute. */
  const acceptedSent: number[] = [];
  /** When the request whose 429 opened the last episode was sent (the limit was empty then). */
  let openedAt: number | undefined;
  /** When pacu heard of that 429. */
  let heardAt = 0;
  /** When the pause that 429 asked for ended: a 429 to a request sent before it is that episode's. */
  let episodeEnds = 0;
  let episodes = 0;
  /** Whether `rate` was measured over an episode (else it is the run's --rate, or a guess). */
  let measured = false;
  /** A 503 pause fell inside the episode: the limit refilled while nothing was sent, so it measures nothing. */
  let spoiled = false;
  let probedAt = 0;
  const stats = { sent: 0, throttled: 0, retried: 0 };
  const forms = new Set<RetryAfterForm>();
  let unavailable = 0;

  const wake = (): void => {
    while (waiting.length > 0 && inFlight < Math.floor(window)) {
      inFlight += 1;
      waiting.shift()?.();
    }
  };

  /**
   * A guess that held for a while without a 429 may be low: raise it a little, up to --rate, but only
   * when the run sent at that rate meanwhile. A run that sent slower learned nothing from no 429.
   */
  const probe = (now: number): void => {
    if (rate === undefined || measured || episodes === 0) return;
    if (now - Math.max(probedAt, heardAt, pausedUntil) < PROBE_EVERY_MS) return;
    probedAt = now;
    if (sentBetween(now - PROBE_EVERY_MS, now) < BINDING_SHARE * rate * (PROBE_EVERY_MS / 1000)) return;
    rate = Math.min(ceiling ?? Infinity, rate * PROBE_STEP);
  };

  /**
   * Wait for this request's turn: past any pause a 429 or 503 asked for (a request queued before it
   * came waits too), then under the rate, evenly spaced and claimed only when due, so requests that
   * woke late (a busy event loop) never leave together as more than a pair.
   */
  const turn = async (): Promise<void> => {
    for (;;) {
      const now = performance.now();
      probe(now);
      const at = Math.max(rate === undefined ? 0 : nextSlotAt, pausedUntil);
      if (at <= now) {
        // The next slot follows this one's due time, not the moment it woke: a busy event loop must
        // not stretch every interval. Late by over an interval, it catches up one slot at most.
        if (rate !== undefined) nextSlotAt = Math.max(at, now - 1000 / rate) + 1000 / rate;
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
    const now = performance.now();
    accepted += 1;
    acceptedSent.push(now - roundTripMs);
    while ((acceptedSent[0] as number) < now - RECENT_MS) acceptedSent.shift();
    fastest = Math.min(fastest, roundTripMs);
    smoothed = smoothed === 0 ? roundTripMs : smoothed * 0.8 + roundTripMs * 0.2;
    // Answers queue when the smoothed round trip doubles the fastest: the target is busy. (pacu's own
    // work between reads shows in the round trip too: a smaller rise is noise, not a queue.)
    const queueing = smoothed > fastest * 2 + 50;
    if (queueing) {
      slowStart = false;
      window = Math.max(min, window - 0.5 / window);
    } else {
      const earned = Math.max(PACER_DEFAULTS.startInFlight, accepted * PACER_DEFAULTS.acceptedShare);
      window = Math.min(max, earned, window + (slowStart ? 1 : 1 / window));
    }
    wake();
  };

  /** Accepted requests sent after `from` (those sent with the request refused there came before it) and before `to`. */
  const sentBetween = (from: number, to: number): number =>
    acceptedSent.filter((at) => at > from && at < to).length;

  /**
   * A 429 that opens an episode: the limit is empty when the refused request reached it. What it
   * accepted between two such requests came in at its rate alone: that is the rate learned (the burst
   * before the first 429 is never counted in it). Until then the run keeps to a guess from that burst,
   * at or a little above its rate, so the second 429 comes soon, with few requests in flight.
   */
  const learn = (sentAt: number, retryAfterMs: number): void => {
    if (openedAt === undefined) {
      // The limit emptied while the run sent at this pace: at or above the provider's rate. It held at
      // most what flowed in since the burst began plus one Retry-After's worth, so what it let through
      // over some recent stretch and one Retry-After is near its rate too, and nearer than the pace.
      const pace = sentBetween(sentAt - 1000, sentAt);
      const guess = Math.max(
        ...STRETCHES_MS.map((ms) => (sentBetween(sentAt - ms, sentAt) * 1000) / (ms + retryAfterMs)),
      );
      rate = Math.min(ceiling ?? Infinity, Math.max(MIN_RATE, Math.min(pace, guess)));
    } else if (!spoiled && sentAt - openedAt >= 1000) {
      const accepted = sentBetween(openedAt, sentAt);
      rate = Math.min(
        ceiling ?? Infinity,
        Math.max(MIN_RATE, (LEARNED_SHARE * accepted * 1000) / (sentAt - openedAt)),
      );
      measured = true;
    }
    openedAt = sentAt;
    spoiled = false;
    episodes += 1;
    slowStart = false;
    // In flight, twice what the rate needs over a round trip: the requests a 429 can catch unawares.
    const needed = rate === undefined ? Infinity : (2 * rate * smoothed) / 1000 + 2;
    window = Math.max(min, Math.min(window / 2, needed));
  };

  return {
    async acquire(urgent = false) {
      while (performance.now() < pausedUntil) await sleep(pausedUntil - performance.now());
      if (urgent) inFlight += 1;
      else if (inFlight < Math.floor(window)) inFlight += 1;
      else await new Promise<void>((resolve) => waiting.push(resolve));
      if (!urgent) await turn();
      else while (performance.now() < pausedUntil) await sleep(pausedUntil - performance.now());
      return release;
    },
    pause(ms, why, form, sentAt) {
      const now = performance.now();
      if (form) forms.add(form);
      pausedUntil = Math.max(pausedUntil, now + ms);
      if (why === 'unavailable') {
        unavailable += 1;
        spoiled = true;
        return;
      }
      // A 429 to a request sent before the last episode's pause was over (in flight when pacu heard of
      // it, or on its way out) belongs to that episode.
      const sent = sentAt ?? now;
      if (episodes > 0 && sent < episodeEnds) return;
      heardAt = now;
      episodeEnds = pausedUntil;
      learn(sent, ms);
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
    get learned() {
      return {
        ...(rate !== undefined && episodes > 0
          ? { perSecond: Math.round(rate * 10) / 10, measured, episodes }
          : {}),
        retryAfter: [...forms].sort(),
        unavailable,
      };
    },
  };
}
