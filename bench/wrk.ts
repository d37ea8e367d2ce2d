// The load generator: wrk (Debian's `wrk` package, C, one thread) with a Lua script, pinned to its
// own core. autocannon built a fresh body per request in JavaScript and topped out near the mock's
// own rate; wrk does not. Install it with: sudo apt-get install -y wrk
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** One request shape to hammer. `body` (POST) gets `{{n}}` replaced by a per-request counter. */
export interface LoadRequest {
  method: 'GET' | 'POST';
  /** Under the base path, e.g. `/users`. */
  path: string;
  headers: Record<string, string>;
  body?: string;
}

export interface LoadResult {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  total: number;
  /** Answers that were not 2xx/3xx, and socket errors (connect, read, write, timeout). */
  non2xx: number;
  errors: number;
}

/** Say how to get wrk when it is missing, instead of installing anything. */
export function requireWrk(): void {
  try {
    execFileSync('wrk', ['--version'], { stdio: 'ignore' });
  } catch (error) {
    // wrk --version exits 1 after printing its version; only a missing binary is a problem.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      console.error('pacu bench: wrk is not installed. Install it with: sudo apt-get install -y wrk');
      process.exit(2);
    }
  }
}

const lua = (text: string): string => JSON.stringify(text); // a JSON string is a valid Lua string here

function script(request: LoadRequest, basePath: string): string {
  const headers = Object.entries(request.headers)
    .map(([name, value]) => `wrk.headers[${lua(name)}] = ${lua(value)}`)
    .join('\n');
  const [before, after] = (request.body ?? '').split('{{n}}');
  return `wrk.method = ${lua(request.method)}
wrk.path = ${lua(`${basePath}${request.path}`)}
${headers}
local n = 0
${
  request.body === undefined
    ? ''
    : `request = function()
  n = n + 1
  return wrk.format(nil, nil, nil, ${lua(before ?? '')} .. n .. ${lua(after ?? '')})
end`
}
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('{"total":%d,"us":%d,"p50":%d,"p99":%d,"status":%d,"errors":%d}\\n',
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99),
    e.status, e.connect + e.read + e.write + e.timeout))
end
`;
}

/** Run wrk on `cpu` against `origin` for `seconds` with `connections`, one thread. */
export async function measure(
  target: { origin: string; basePath: string },
  request: LoadRequest,
  connections: number,
  seconds: number,
  cpu: string,
): Promise<LoadResult> {
  const dir = mkdtempSync(path.join(tmpdir(), 'pacu-wrk-'));
  const file = path.join(dir, 'load.lua');
  writeFileSync(file, script(request, target.basePath));
  try {
    const output = await new Promise<string>((resolve, reject) => {
      const child = spawn(
        'taskset',
        ['-c', cpu, 'wrk', '-t1', `-c${connections}`, `-d${seconds}s`, '-s', file, target.origin],
        { stdio: ['ignore', 'pipe', 'inherit'] },
      );
      let text = '';
      child.stdout.on('data', (chunk) => {
        text += chunk;
      });
      child.once('error', reject);
      child.once('exit', (code) =>
        code === 0 ? resolve(text) : reject(new Error(`wrk exited with ${code}`)),
      );
    });
    const line = output.split('\n').find((candidate) => candidate.startsWith('{"total"'));
    if (!line) throw new Error(`wrk printed no summary: ${output}`);
    const figures = JSON.parse(line) as Record<string, number>;
    const total = figures.total ?? 0;
    return {
      requestsPerSecond: Math.round(total / ((figures.us ?? 1) / 1e6)),
      p50Ms: Math.round((figures.p50 ?? 0) / 10) / 100,
      p99Ms: Math.round((figures.p99 ?? 0) / 10) / 100,
      total,
      non2xx: figures.status ?? 0,
      errors: figures.errors ?? 0,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
