/** Connections a receiver gets at most at once (undici's pool per origin is the same size). */
export const MAX_CONNECTIONS_PER_RECEIVER = 16;

/**
 * The deliveries to one receiver: at most `limit` exchanges at once; the rest wait here, outside the
 * delivery timeout, so time spent waiting for a connection never counts against the receiver.
 * Standard Webhooks asks senders to throttle a receiver that answers 429, 502 or 504: each such
 * answer halves the limit (down to one at a time); a run of successes gives slots back one by one.
 */
export class WebhookLane {
  private active = 0;
  private limit = MAX_CONNECTIONS_PER_RECEIVER;
  private successes = 0;
  private readonly waiting: Array<() => void> = [];

  /** Resolves when an exchange may start; call `release()` when it is over. */
  acquire(): Promise<void> {
    if (this.active < this.limit) {
      this.active++;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  release(): void {
    this.active--;
    while (this.active < this.limit && this.waiting.length > 0) {
      this.active++;
      this.waiting.shift()?.();
    }
  }

  throttle(): void {
    this.limit = Math.max(1, Math.floor(this.limit / 2));
    this.successes = 0;
  }

  /** One more slot after as many successes in a row as there are slots (TCP's additive increase). */
  recover(): void {
    if (this.limit >= MAX_CONNECTIONS_PER_RECEIVER || ++this.successes < this.limit) return;
    this.limit++;
    this.successes = 0;
  }

  get concurrency(): number {
    return this.limit;
  }
}

/** Statuses Standard Webhooks says to throttle on. */
export const THROTTLE_STATUSES = new Set([429, 502, 504]);
