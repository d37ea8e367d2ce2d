// `pacu mock` on a host that gives it fewer CPUs than Node's four V8 helper threads: the launcher
// runs the server in a child with the pool sized to them (decision 042). What must hold: the
// server really runs so, signals and exit codes pass through, and nothing is left running.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MOCK_NODE_FLAGS } from '../cli/mock-runtime.ts';
import { PACU_BIN } from './helpers/pacu-bin.ts';
import { call, postJson, tokenFor, transferBody } from './mock-helpers.ts';
import { endOf, mockOf, type StartedCli, startCli } from './mock-process.ts';

const hasTaskset = spawnSync('taskset', ['-c', '0', 'true']).status === 0;
const stateFile = (): string => path.join(mkdtempSync(path.join(tmpdir(), 'pacu-launch-')), 'state.jsonl');

/** Gone, or a zombie nobody has reaped yet: either way it serves nothing. */
function running(pid: number): boolean {
  const stat = `/proc/${pid}/stat`;
  if (!existsSync(stat)) return false;
  try {
    return readFileSync(stat, 'utf8').split(') ')[1]?.[0] !== 'Z';
  } catch {
    return false;
  }
}

async function until(condition: () => boolean, ms = 10_000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!condition() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 25));
  return condition();
}

/** A transfer the mock acknowledged, and the body that replays it. */
async function acknowledgedTransfer(started: StartedCli) {
  const mock = mockOf(started.info);
  const token = await tokenFor(mock);
  const body = transferBody(started.info.merchantAccountId as string, { reference: 'LAUNCHED-1' });
  const first = await postJson(`${mock.url}/payments/usd/direct`, token, body);
  expect(first.status).toBe(200);
  return { token, body, id: first.body.data.transaction_id as string };
}

async function replays(file: string, transfer: Awaited<ReturnType<typeof acknowledgedTransfer>>) {
  const again = await startCli(['--state', file]);
  try {
    const reply = await postJson(`${again.info.url}/payments/usd/direct`, transfer.token, transfer.body);
    return reply.body.data?.transaction_id;
  } finally {
    const done = endOf(again.child);
    again.child.kill('SIGTERM');
    await done;
  }
}

describe.skipIf(!hasTaskset)('pacu mock on one CPU', () => {
  it('serves from a child with V8 helpers sized to that CPU; SIGTERM to the launcher closes it gracefully', async () => {
    const file = stateFile();
    const started = await startCli(['--state', file], { cpus: '0' });
    const server = Number(started.info.pid);
    expect(server).not.toBe(started.child.pid);
    const commandLine = readFileSync(`/proc/${server}/cmdline`, 'utf8').split('\0');
    expect(commandLine).toEqual(expect.arrayContaining([...MOCK_NODE_FLAGS]));
    // Node's auto size on one CPU: one helper thread where the default starts four.
    const helpers = (pid: number): number =>
      Number(
        execFileSync('ps', ['-L', '-o', 'lwp=', '-p', String(pid)])
          .toString()
          .trim()
          .split('\n').length,
      );
    expect(helpers(server)).toBeLessThan(helpers(started.child.pid as number));
    const transfer = await acknowledgedTransfer(started);
    const done = endOf(started.child);
    started.child.kill('SIGTERM');
    expect(await done).toEqual({ code: 0, signal: null });
    expect(await until(() => !running(server))).toBe(true);
    expect(await replays(file, transfer)).toBe(transfer.id);
  }, 30_000);

  it('leaves no server behind when the launcher is killed with SIGKILL, and loses nothing it acknowledged', async () => {
    const file = stateFile();
    const started = await startCli(['--state', file], { cpus: '0' });
    const server = Number(started.info.pid);
    const transfer = await acknowledgedTransfer(started);
    const done = endOf(started.child);
    started.child.kill('SIGKILL');
    await done;
    expect(await until(() => !running(server))).toBe(true);
    expect(await replays(file, transfer)).toBe(transfer.id);
  }, 30_000);

  it('takes the server down with the launcher killed by SIGKILL: a request in flight is cut, not answered by an orphan', async () => {
    const started = await startCli([], { cpus: '0' });
    const server = Number(started.info.pid);
    const mock = mockOf(started.info);
    const token = await tokenFor(mock);
    const control = started.info.control as string;
    // Shorter than the graceful close's grace period: a server that drains would still answer it.
    const fault = await call(`${control}/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ operation: 'listUsers', kind: 'delay', ms: 4000 }),
    });
    expect(fault.status).toBe(200);
    const inFlight = fetch(`${mock.url}/users`, { headers: { authorization: `Bearer ${token}` } }).then(
      (response) => response.status,
      (error: Error) => error,
    );
    const fired = async (): Promise<boolean> =>
      ((await call(`${control}/faults`)).body as Array<{ fired: number }>).some((each) => each.fired > 0);
    while (!(await fired())) await new Promise((resolve) => setTimeout(resolve, 20));
    const done = endOf(started.child);
    started.child.kill('SIGKILL');
    await done;
    expect(await inFlight).toBeInstanceOf(Error);
    expect(await until(() => !running(server))).toBe(true);
  }, 30_000);

  it('ends the way the server ended: a crash of the server is a SIGKILL of the launcher too', async () => {
    const started = await startCli([], { cpus: '0' });
    const done = endOf(started.child);
    process.kill(Number(started.info.pid), 'SIGKILL');
    expect(await done).toEqual({ code: null, signal: 'SIGKILL' });
  });

  it('passes a usage error through as exit 2 and one line', () => {
    const result = spawnSync('taskset', ['-c', '0', process.execPath, PACU_BIN, 'mock', '--port', 'nope'], {
      encoding: 'utf8',
    });
    expect(result.status).toBe(2);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(/^pacu: .*--port/);
  });

  it('keeps a pool size the user chose in NODE_OPTIONS, and then serves in the launched process itself', async () => {
    const started = await startCli([], {
      cpus: '0',
      env: { ...process.env, NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --v8-pool-size=2` },
    });
    expect(Number(started.info.pid)).toBe(started.child.pid);
    const done = endOf(started.child);
    started.child.kill('SIGTERM');
    expect(await done).toEqual({ code: 0, signal: null });
  });
});
