// `npm run bench -- --only instructions`: each server's instructions an answer, counted by valgrind
// (cachegrind), which a busy host does not move as it moves time. Two runs a server, `few` and
// `many` POSTs; their difference over `many - few` is a warm answer's share (decision 207).
import { spawn, spawnSync } from 'node:child_process';
import http from 'node:http';
import { createInterface } from 'node:readline';
import { MOCK_NODE_FLAGS } from '../cli/mock-runtime.ts';
import { EXAMPLE_TRANSFER } from './load-requests.ts';
import { ratio } from './startup.ts';

interface Server {
  name: string;
  script: string;
  root?: string;
}

/** How many requests are in flight at once, as the load runs' connections. */
const IN_FLIGHT = 32;

function requireValgrind(): void {
  if (spawnSync('valgrind', ['--version']).status !== 0)
    throw new Error('--only instructions needs valgrind on PATH (Debian: apt-get install valgrind)');
}

/** The instructions `server` ran from its start to its exit, having answered `count` transfers. */
async function instructionsFor(server: Server, count: number): Promise<number> {
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
    await postTransfers(info, count);
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
  const refs = /I\s+refs:\s+([\d,]+)/.exec(report)?.[1];
  if (!refs) throw new Error(`valgrind printed no count for ${server.name}: ${report.slice(-400)}`);
  return Number(refs.replaceAll(',', ''));
}

/** `count` transfers, each with a new reference, `IN_FLIGHT` at a time; every one must be answered 200. */
async function postTransfers(info: Record<string, string>, count: number): Promise<void> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: IN_FLIGHT });
  const send = (method: string, path: string, headers: Record<string, string>, body: string) =>
    new Promise<{ status: number; text: string }>((resolve, reject) => {
      const request = http.request(`${info.origin}${path}`, { method, headers, agent }, (response) => {
        let text = '';
        response.on('data', (chunk: Buffer) => {
          text += chunk.toString();
        });
        response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
      });
      request.on('error', reject);
      request.end(body);
    });
  // The plain and tuned servers know one token and account; the mock issues its own.
  let token = 'essential-token';
  let accountId = 'acc_essential';
  if (info.clientId) {
    const basic = Buffer.from(`${info.clientId}:${info.clientSecret}`).toString('base64');
    const issued = await send(
      'POST',
      '/v3/auth/token',
      { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' },
      'grant_type=client_credentials&scope=card,us_account',
    );
    token = (JSON.parse(issued.text) as { data: { access_token: string } }).data.access_token;
    accountId = info.merchantAccountId as string;
  }
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const run = Date.now().toString(36);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < count) {
      const body = {
        ...EXAMPLE_TRANSFER,
        account_id: accountId,
        transfer_type: 'WIRE',
        reference: `I-${run}-${next++}`,
      };
      const answer = await send('POST', '/v3/payments/usd/direct', headers, JSON.stringify(body));
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
  const perAnswer: Record<string, number> = {};
  for (const server of servers) {
    // The two counts of one server side by side: each is one process on one core.
    const [low, high] = await Promise.all([instructionsFor(server, few), instructionsFor(server, many)]);
    perAnswer[server.name] = (high - low) / (many - few);
  }
  const bare = perAnswer['bare node:http'] as number;
  for (const [name, count] of Object.entries(perAnswer))
    console.log(
      `  ${name.padEnd(22)} ${(count / 1000).toFixed(1).padStart(7)} thousand instructions an answer, ${ratio(count, bare)} times bare node:http's`,
    );
  console.log(JSON.stringify({ few, many, perAnswer }));
}
