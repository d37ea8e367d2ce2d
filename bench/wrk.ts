// The load generator: wrk (Debian's `wrk` package, C, one thread) with a Lua script, pinned to its
// own core. autocannon built a fresh body per request in JavaScript and topped out near the mock's
// own rate; wrk does not. Install it with: sudo apt-get install -y wrk
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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
  /**
   * The server's CPU time over the counted run's wall time (1 = its core was busy throughout):
   * near 1 for every server shows the server, not wrk, was the limit.
   */
  serverCpu?: number;
}

/** Clock ticks per second of /proc's CPU times (USER_HZ: 100 on Linux). */
const TICKS_PER_SECOND = 100;

/** User plus system CPU seconds of `pid` so far, from /proc (undefined where there is none). */
function cpuSeconds(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
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

/** The Lua script; `{{n}}` becomes `tag` and a per-request counter (each wrk run counts from 1). */
function script(request: LoadRequest, basePath: string, tag: string, delayMs = 0): string {
  const headers = Object.entries(request.headers)
    .map(([name, value]) => `wrk.headers[${lua(name)}] = ${lua(value)}`)
    .join('\n');
  const [before, after] = (request.body ?? '').split('{{n}}');
  return `wrk.method = ${lua(request.method)}
wrk.path = ${lua(`${basePath}${request.path}`)}
${headers}
local n = 0
${delayMs > 0 ? `delay = function() return math.random(0, ${2 * delayMs}) end` : ''}
${
  request.body === undefined
    ? ''
    : `request = function()
  n = n + 1
  return wrk.format(nil, nil, nil, ${lua(`${before ?? ''}${tag}`)} .. n .. ${lua(after ?? '')})
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

/** One wrk run of `seconds` with `script`; resolves with what it printed. */
function runWrk(origin: string, script: string, connections: number, seconds: number, cpu: string) {
  return new Promise<string>((resolve, reject) => {
    const child = spawn(
      'taskset',
      ['-c', cpu, 'wrk', '-t1', `-c${connections}`, `-d${seconds}s`, '-s', script, origin],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let text = '';
    child.stdout.on('data', (chunk) => {
      text += chunk;
    });
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve(text) : reject(new Error(`wrk exited with ${code}`))));
  });
}

/**
 * Run wrk on `cpu` against `origin` for `seconds` with `connections`, one thread, after `warmup`
 * seconds of the same load that are not counted: the first half second of a fresh node server is
 * spent compiling its hot path, and a cold start would put that into every server's p99.
 */
export async function measure(
  target: { origin: string; basePath: string; pid?: number },
  request: LoadRequest,
  connections: number,
  seconds: number,
  cpu: string,
  warmup = 2,
  /**
   * A paced load, not a saturating one: each connection waits 0 to 2 x `delayMs` (at random) before
   * each request. A fixed wait lines the connections up: after one round all 32 send in the same
   * instant, and the burst's queue, not the server, makes the p99.
   */
  delayMs = 0,
  /** Told apart from other runs of the same request: a transfer's reference is the tag and a count. */
  tag = '',
): Promise<LoadResult> {
  const dir = mkdtempSync(path.join(tmpdir(), 'pacu-wrk-'));
  const file = path.join(dir, 'load.lua');
  const warmupFile = path.join(dir, 'warmup.lua');
  // Different references for the warm-up: the counted run must create transfers, not replay them.
  writeFileSync(warmupFile, script(request, target.basePath, `w${tag}`, delayMs));
  writeFileSync(file, script(request, target.basePath, `m${delayMs}${tag}`, delayMs));
  try {
    if (warmup > 0) await runWrk(target.origin, warmupFile, connections, warmup, cpu);
    const cpuBefore = cpuSeconds(target.pid);
    const output = await runWrk(target.origin, file, connections, seconds, cpu);
    const cpuAfter = cpuSeconds(target.pid);
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
      ...(cpuBefore !== undefined && cpuAfter !== undefined
        ? { serverCpu: Math.round(((cpuAfter - cpuBefore) / ((figures.us ?? 1) / 1e6)) * 100) / 100 }
        : {}),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
