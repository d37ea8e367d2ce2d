// Ad-hoc: --cpu-prof of the mock (no --state) under POST load; OUT dir, SECS.
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { mockToken, requests } from './load-requests.ts';
import { measure } from './wrk.ts';
const out = process.env.OUT ?? '/tmp/mprof';
rmSync(out, { recursive: true, force: true });
const child = spawn('taskset', ['-c', '0', process.execPath, '--v8-pool-size=0', '--cpu-prof', '--cpu-prof-interval', '200', `--cpu-prof-dir=${out}`, 'bench/servers/mock-server.mjs'], { stdio: ['ignore', 'pipe', 'inherit'] });
const info = await new Promise<Record<string, string>>((resolve) => createInterface({ input: child.stdout! }).once('line', (l) => resolve(JSON.parse(l))));
const t = { name: 'pacu', origin: info.origin as string, basePath: '/v3', pid: child.pid, info };
const token = await mockToken(t as never);
const load = requests(token, info.merchantAccountId as string);
const r = await measure(t, load[(process.env.KIND ?? 'POST /payments/usd/direct') as 'POST /payments/usd/direct'], 32, Number(process.env.SECS ?? 8), '1', 2);
console.log('requests', r.total, 'rps', r.requestsPerSecond, 'cpu', r.serverCpu, 'p99', r.p99Ms);
const e = new Promise((res) => child.once('exit', res)); child.kill('SIGTERM'); await e;
