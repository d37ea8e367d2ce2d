import { createServer, request as forward, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { seededRandom } from '../../../mock/internal/random.ts';

/** What the network between pacu and a sandbox does; every field off by default. */
export interface NetworkOptions {
  /** Added to every answer, plus up to `jitterMs` more. */
  readonly latencyMs?: number;
  readonly jitterMs?: number;
  /** A token bucket per client: `burst` at once, then `perSecond`; beyond it 429 with the error envelope. */
  readonly rateLimit?: {
    readonly burst: number;
    readonly perSecond: number;
    /** How Retry-After is written. @default 'seconds' */
    readonly retryAfter?: 'seconds' | 'date';
    /**
     * 'once-empty': the burst is an allowance that starts refilling only when it has run out, so a run
     * of more than `burst` requests is throttled however slowly a loaded machine sends them.
     * @default 'always'
     */
    readonly refill?: 'always' | 'once-empty';
  };
  /**
   * 503 with Retry-After for `forMs` out of every `everyMs` (maintenance windows), the first opening
   * `firstAtMs` after the first request, or as request number `firstAtRequest` arrives: counted
   * from the traffic, not the start, so a loaded machine meets it too.
   */
  readonly maintenance?: {
    readonly everyMs: number;
    readonly forMs: number;
    readonly firstAtMs?: number;
    readonly firstAtRequest?: number;
    /** How Retry-After is written. @default 'seconds' */
    readonly retryAfter?: 'seconds' | 'date';
  };
  /** Share of requests whose connection is reset: half before the sandbox sees them, half after it answered. */
  readonly resetShare?: number;
  /** Only requests of these methods are reset (`['GET']`: a reset on reads alone). @default every method */
  readonly resetMethods?: readonly string[];
  /** Seeds the resets and the jitter, so a draw replays. @default 1 */
  readonly seed?: number;
}

export interface NetworkStats {
  readonly requests: number;
  readonly limited: number;
  /** 429s answered after the first 429 (those already in flight when it was answered included). */
  readonly limitedAfterFirst: number;
  /** 429s to requests sent after the first 429 was answered: the client had been told to wait. */
  readonly limitedAfterTold: number;
  /** 429s answered after the first throttled episode (the first Retry-After after the first 429). */
  readonly limitedAfterFirstBurst: number;
  readonly unavailable: number;
  readonly resets: number;
  /** Requests let through the rate limit (forwarded to the sandbox, or reset on the way). */
  readonly passed: number;
  /** Milliseconds of maintenance windows between the first request and the last answer. */
  readonly maintenanceMs: number;
  /** Milliseconds from the first request to the last answer. */
  readonly spanMs: number;
}

export interface NetworkFront {
  /** The sandbox's base URL, reached through this front. */
  readonly url: string;
  readonly stats: NetworkStats;
  close(): Promise<void>;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function refuse(response: ServerResponse, status: number, message: string, retryAfter: string): void {
  response
    .writeHead(status, { 'content-type': 'application/json', 'retry-after': retryAfter })
    .end(JSON.stringify({ success: false, message }));
}

/**
 * Retry-After for a wait of `seconds` from `now`: delay-seconds, or the HTTP date it ends at, rounded
 * up to its second as a careful server writes it (an HTTP date has no finer unit).
 */
function retryAfterText(seconds: number, form: 'seconds' | 'date' | undefined, now: number): string {
  return form === 'date'
    ? new Date(Math.ceil((now + seconds * 1000) / 1000) * 1000).toUTCString()
    : String(seconds);
}

/**
 * A front on 127.0.0.1 that forwards to `upstream` (a sandbox's base URL) through a network a
 * remote sandbox has: latency, a rate limit answering 429, maintenance windows answering 503,
 * connections reset now and then.
 */
export async function startNetworkFront(upstream: string, options: NetworkOptions): Promise<NetworkFront> {
  const target = new URL(upstream);
  const random = seededRandom(options.seed ?? 1);
  let trafficFrom: number | undefined;
  const limit = options.rateLimit;
  let tokens = limit?.burst ?? 0;
  let refilledAt = Date.now();
  let firstLimitedAt: number | undefined;
  const stats = {
    requests: 0,
    limited: 0,
    limitedAfterFirst: 0,
    limitedAfterTold: 0,
    limitedAfterFirstBurst: 0,
    unavailable: 0,
    resets: 0,
    passed: 0,
  };
  let lastAnswerAt = 0;

  /** Seconds until the bucket holds a token again (at least 1: Retry-After counts whole seconds). */
  const takeToken = (): number | undefined => {
    if (!limit) return undefined;
    const now = Date.now();
    if (limit.refill !== 'once-empty' || firstLimitedAt !== undefined)
      tokens = Math.min(limit.burst, tokens + ((now - refilledAt) / 1000) * limit.perSecond);
    refilledAt = now;
    if (tokens >= 1) {
      tokens -= 1;
      return undefined;
    }
    return Math.max(1, Math.ceil((1 - tokens) / limit.perSecond));
  };

  /** When the first maintenance window opens, once known. */
  let windowsFrom: number | undefined;
  const inMaintenance = (): number | undefined => {
    const window = options.maintenance;
    if (!window) return undefined;
    if (windowsFrom === undefined) {
      if (window.firstAtRequest === undefined)
        windowsFrom = (trafficFrom ?? Date.now()) + (window.firstAtMs ?? 0);
      else if (stats.requests >= window.firstAtRequest) windowsFrom = Date.now();
      else return undefined;
    }
    const since = Date.now() - windowsFrom;
    if (since < 0) return undefined;
    const into = since % window.everyMs;
    return into < window.forMs ? Math.max(1, Math.ceil((window.forMs - into) / 1000)) : undefined;
  };

  /** Milliseconds of maintenance windows in the first `spanMs` of the traffic. */
  const maintenanceWithin = (spanMs: number): number => {
    const window = options.maintenance;
    if (!window || windowsFrom === undefined || trafficFrom === undefined) return 0;
    let total = 0;
    for (let at = windowsFrom; at < trafficFrom + spanMs; at += window.everyMs)
      total += Math.max(0, Math.min(at + window.forMs, trafficFrom + spanMs) - Math.max(at, trafficFrom));
    return total;
  };

  const handle = async (request: IncomingMessage, response: ServerResponse, body: Buffer): Promise<void> => {
    const arrivedAt = Date.now();
    stats.requests += 1;
    trafficFrom ??= Date.now();
    await sleep((options.latencyMs ?? 0) + random() * (options.jitterMs ?? 0));
    const resettable = !options.resetMethods || options.resetMethods.includes(request.method ?? '');
    const reset = resettable && random() < (options.resetShare ?? 0);
    if (reset && random() < 0.5) {
      stats.resets += 1;
      request.socket.destroy();
      return;
    }
    const down = inMaintenance();
    if (down !== undefined) {
      stats.unavailable += 1;
      lastAnswerAt = Date.now();
      const form = options.maintenance?.retryAfter;
      return refuse(response, 503, 'Service under maintenance', retryAfterText(down, form, Date.now()));
    }
    const wait = takeToken();
    if (wait !== undefined) {
      stats.limited += 1;
      const now = Date.now();
      lastAnswerAt = now;
      if (firstLimitedAt !== undefined) stats.limitedAfterFirst += 1;
      if (firstLimitedAt !== undefined && arrivedAt > firstLimitedAt) stats.limitedAfterTold += 1;
      firstLimitedAt ??= now;
      if (now > firstLimitedAt + wait * 1000) stats.limitedAfterFirstBurst += 1;
      return refuse(response, 429, 'Too many requests', retryAfterText(wait, limit?.retryAfter, now));
    }
    stats.passed += 1;
    const path = request.url ?? '/';
    const upstreamRequest = forward(
      { host: target.hostname, port: target.port, method: request.method, path, headers: request.headers },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () => {
          if (reset) {
            // The sandbox acted on it; its answer is lost on the way back.
            stats.resets += 1;
            request.socket.destroy();
            return;
          }
          lastAnswerAt = Date.now();
          response.writeHead(answer.statusCode ?? 502, answer.headers).end(Buffer.concat(chunks));
        });
      },
    );
    upstreamRequest.on('error', () => request.socket.destroy());
    upstreamRequest.end(body);
  };

  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => void handle(request, response, Buffer.concat(chunks)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}${target.pathname.replace(/\/+$/, '')}`,
    get stats() {
      const spanMs = trafficFrom === undefined ? 0 : Math.max(0, lastAnswerAt - trafficFrom);
      return { ...stats, spanMs, maintenanceMs: maintenanceWithin(spanMs) };
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
