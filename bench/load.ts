import { createRequire } from 'node:module';

/** One request shape to hammer; `body` is called per request so each can differ (fresh references). */
export interface LoadRequest {
  method: 'GET' | 'POST';
  /** Under the base path, e.g. `/users`. */
  path: string;
  headers: Record<string, string>;
  body?: () => string;
}

export interface LoadResult {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  total: number;
  non2xx: number;
  errors: number;
}

interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number };
  non2xx: number;
  errors: number;
}
type Autocannon = (options: Record<string, unknown>) => Promise<AutocannonResult>;

// autocannon ships no types; this is the one place that touches it.
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

/** Run autocannon against `origin` for `seconds` with `connections` and return the figures. */
export async function measure(
  target: { origin: string; basePath: string },
  request: LoadRequest,
  connections: number,
  seconds: number,
): Promise<LoadResult> {
  const result = await autocannon({
    url: target.origin,
    connections,
    duration: seconds,
    requests: [
      {
        method: request.method,
        path: `${target.basePath}${request.path}`,
        headers: request.headers,
        ...(request.body
          ? {
              setupRequest: (raw: Record<string, unknown>) => ({
                ...raw,
                body: (request.body as () => string)(),
              }),
            }
          : {}),
      },
    ],
  });
  return {
    requestsPerSecond: Math.round(result.requests.average),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    total: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}
