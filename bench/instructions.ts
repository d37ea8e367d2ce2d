// `npm run bench -- --only instructions`: each server's instructions an answer, counted by valgrind
// (cachegrind), which a busy host does not move as it moves time. Two runs a server, `few` and
// `many` POSTs; their difference over `many - few` is a warm answer's share (decision 207).
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { MOCK_NODE_FLAGS } from '../cli/mock-runtime.ts';
import { EXAMPLE_TRANSFER, mockToken } from './load-requests.ts';
import { PLAIN_ACCOUNT, PLAIN_TOKEN } from './plain.ts';
import { startCannedUpstream } from './proxy.ts';
import { ratio } from './startup.ts';

interface Server {
  name: string;
  script: string;
  root?: string;
  /** The script's arguments for one of its two runs (a proxy's upstream, its own HAR file). */
  args?: (run: string) => string[];
}

/** Whose token and account the POSTs carry. */
export interface Credentials {
  token: string;
  accountId: string;
}

/** How many requests are in flight at once, as the load runs' connections. */
const IN_FLIGHT = 32;

function requireValgrind(): void {
  if (spawnSync('valgrind', ['--version']).status !== 0)
    throw new Error('--only instructions needs valgrind on PATH (Debian: apt-get install valgrind)');
}

/** The instructions `server` ran from its start to its exit, having answered `count` transfers. */
async function instructionsFor(server: Server, count: number, credentials?: Credentials): Promise<number> {
  const tool = ['--tool=cachegrind', '--cache-sim=no', '--cachegrind-out-file=/dev/null'];
  // The same count run after run: V8's heuristics that read the clock (when to collect, how far to
  // grow) moved it; --predictable and fixed seeds hold it still (decision 207).
  const node = [
    process.execPath,
    ...MOCK_NODE_FLAGS,
    '--predictable',
    '--hash-seed=1',
    '--random-seed=1',
    server.script,
    ...(server.args?.(String(count)) ?? []),
  ];
  // V8 writes its code at run time: valgrind must look for it everywhere but in files.
  const child = spawn('valgrind', [...tool, '--smc-check=all-non-file', ...node], {
    cwd: server.root ?? process.cwd(),
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, PACU_BENCH_CLOCK: 'manual' },
  });
  let report = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    report += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  const info = await new Promise<Record<string, string>>((resolve, reject) => {
    lines.on('line', (line) => {
      if (line.startsWith('{')) resolve(JSON.parse(line));
    });
    void exited.then((code) =>
      reject(new Error(`${server.name} exited with ${code}: ${report.slice(-400)}`)),
    );
  });
  lines.close();
  try {
    await postTransfers(info.origin as string, count, credentials ?? (await credentialsOf(info)));
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
  const refs = /I\s+refs:\s+([\d,]+)/.exec(report)?.[1];
  if (!refs) throw new Error(`valgrind printed no count for ${server.name}: ${report.slice(-400)}`);
  return Number(refs.replaceAll(',', ''));
}

/** A request to `origin` on a keep-alive agent: its status and text. */
function sender(origin: string, agent: http.Agent) {
  return (method: string, path: string, headers: Record<string, string>, body: string) =>
    new Promise<{ status: number; text: string }>((resolve, reject) => {
      const request = http.request(`${origin}${path}`, { method, headers, agent }, (response) => {
        let text = '';
        response.on('data', (chunk: Buffer) => {
          text += chunk.toString();
        });
        response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
      });
      request.on('error', reject);
      request.end(body);
    });
}

/** The plain and tuned servers know one token (and take any account); a mock issues its own. */
async function credentialsOf(info: Record<string, string>): Promise<Credentials> {
  if (!info.clientId) return { token: PLAIN_TOKEN, accountId: PLAIN_ACCOUNT };
  const token = await mockToken({ origin: info.origin as string, info });
  return { token, accountId: info.merchantAccountId as string };
}

/**
 * `count` transfers, each with a new reference, `IN_FLIGHT` at a time; every one must be answered
 * 200. `tokenOf` gives the nth its own bearer token instead of `token`.
 */
export async function postTransfers(
  origin: string,
  count: number,
  { token, accountId }: Credentials,
  tokenOf?: (n: number) => string,
): Promise<void> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: IN_FLIGHT });
  const send = sender(origin, agent);
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const run = Date.now().toString(36);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < count) {
      const n = next++;
      const body = {
        ...EXAMPLE_TRANSFER,
        account_id: accountId,
        transfer_type: 'WIRE',
        reference: `I-${run}-${n}`,
      };
      const sent = tokenOf ? { ...headers, authorization: `Bearer ${tokenOf(n)}` } : headers;
      const answer = await send('POST', '/v3/payments/usd/direct', sent, JSON.stringify(body));
      if (answer.status !== 200)
        throw new Error(`a transfer was answered ${answer.status}: ${answer.text.slice(0, 200)}`);
    }
  };
  try {
    await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  } finally {
    agent.destroy();
  }
}

/** Each server's instructions an answer: its two runs side by side, each one process on one core. */
async function countEach(
  servers: readonly Server[],
  few: number,
  many: number,
  credentials?: Credentials,
): Promise<Record<string, number>> {
  const perAnswer: Record<string, number> = {};
  for (const server of servers) {
    const [low, high] = await Promise.all([
      instructionsFor(server, few, credentials),
      instructionsFor(server, many, credentials),
    ]);
    perAnswer[server.name] = (high - low) / (many - few);
  }
  return perAnswer;
}

function print(perAnswer: Record<string, number>, bareName: string, unit: string): void {
  const bare = perAnswer[bareName] as number;
  for (const [name, count] of Object.entries(perAnswer))
    console.log(
      `  ${name.padEnd(26)} ${(count / 1000).toFixed(1).padStart(7)} thousand instructions ${unit}, ${ratio(count, bare)} times the ${bareName}'s`,
    );
}

/**
 * The proxies of the proxy bench in front of its canned upstream (itself on a mock), neither of
 * which is counted: the bare proxy, the plain recording proxy and pacu proxy, judging and recording.
 */
async function proxyCounts(few: number, many: number): Promise<Record<string, number>> {
  const dir = mkdtempSync(path.join(tmpdir(), 'pacu-instructions-'));
  const { mock, upstream } = await startCannedUpstream();
  try {
    const url = upstream.info.url as string;
    const har = (name: string) => (run: string) => [url, path.join(dir, `${name}-${run}.har`)];
    return await countEach(
      [
        { name: 'bare proxy', script: 'bench/servers/bare-proxy.mjs', args: () => [url] },
        { name: 'plain recording proxy', script: 'bench/servers/bare-proxy.mjs', args: har('plain') },
        { name: 'pacu proxy', script: 'bench/servers/proxy-server.mjs', args: har('pacu') },
      ],
      few,
      many,
      await credentialsOf(mock.info as Record<string, string>),
    );
  } finally {
    await upstream.stop();
    await mock.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function instructionRuns(few: number, many: number, baseline?: string): Promise<void> {
  requireValgrind();
  const servers: Server[] = [
    { name: 'bare node:http', script: 'bench/servers/bare-server.mjs' },
    { name: 'plain server', script: 'bench/servers/essential-server.mjs' },
    { name: 'tuned server', script: 'bench/servers/tuned-server.mjs' },
    { name: 'pacu mock', script: 'bench/servers/mock-server.mjs' },
  ];
  if (baseline)
    servers.push({ name: 'pacu mock (baseline)', script: 'bench/servers/mock-server.mjs', root: baseline });
  console.log(
    `instructions: each server under valgrind for ${few} and for ${many} POSTs (${IN_FLIGHT} in flight); the difference over ${many - few}`,
  );
  const answers = await countEach(servers, few, many);
  print(answers, 'bare node:http', 'an answer');
  const exchanges = await proxyCounts(few, many);
  print(exchanges, 'bare proxy', 'an exchange');
  console.log(JSON.stringify({ few, many, perAnswer: answers, perExchange: exchanges }));
}
