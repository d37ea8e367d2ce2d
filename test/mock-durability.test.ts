import { appendFileSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Agent, request } from 'undici';
import { describe, expect, it } from 'vitest';
import { startMock } from '../mock/index.ts';
import { call, tokenFor, transferBody } from './mock-helpers.ts';
import { exitOf, mockOf, startCli } from './mock-process.ts';

const directory = (): string => mkdtempSync(path.join(tmpdir(), 'pacu-durable-'));

describe('durability', () => {
  it('keeps every acknowledged transfer through kill -9 during a burst: each replays to its own id', async () => {
    const file = path.join(directory(), 'state.jsonl');
    const first = await startCli(['--state', file]);
    const mock = mockOf(first.info);
    const token = await tokenFor(mock);
    const agent = new Agent({ connections: 32, pipelining: 1 });
    const acknowledged: Array<{ body: Record<string, unknown>; id: string }> = [];
    let stop = false;
    const worker = async (lane: number): Promise<void> => {
      for (let index = 0; !stop; index++) {
        const body = transferBody(first.info.merchantAccountId as string, {
          reference: `CRASH-${lane}-${index}`,
        });
        try {
          const response = await request(`${mock.url}/payments/usd/direct`, {
            method: 'POST',
            dispatcher: agent,
            headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
            body: JSON.stringify(body),
          });
          const reply = (await response.body.json()) as { data?: { transaction_id: string } };
          if (response.statusCode === 200 && reply.data)
            acknowledged.push({ body, id: reply.data.transaction_id });
        } catch {
          return; // the process is gone: this one was never acknowledged
        }
      }
    };
    const lanes = Array.from({ length: 32 }, (_, lane) => worker(lane));
    while (acknowledged.length < 400) await new Promise((resolve) => setTimeout(resolve, 5));
    const exited = exitOf(first.child);
    // The serving process, not a launcher in front of it (decision 042), is the one that crashes.
    process.kill(Number(first.info.pid), 'SIGKILL');
    await exited;
    stop = true;
    await Promise.all(lanes);
    await agent.close();

    const second = await startCli(['--state', file]);
    try {
      const url = second.info.url as string;
      const lost: string[] = [];
      for (const { body, id } of acknowledged) {
        const again = await call(`${url}/payments/usd/direct`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        if (again.body?.data?.transaction_id !== id)
          lost.push(
            `${body.reference}: ${again.status} ${again.body?.data?.transaction_id ?? again.body?.message}`,
          );
      }
      expect(lost).toEqual([]);
      expect(readdirSync(path.dirname(file)).filter((name) => name.endsWith('.tmp'))).toEqual([]);
    } finally {
      const exited2 = exitOf(second.child);
      second.child.kill('SIGTERM');
      await exited2;
    }
  }, 60_000);

  it('creates its files 0600, compacts the journal into the snapshot and leaves no temporary file', async () => {
    const dir = directory();
    const file = path.join(dir, 'state.jsonl');
    const mock = await startMock({ stateFile: file, compactAfterBytes: 4096, log: () => {} });
    const token = await tokenFor(mock);
    for (let index = 0; index < 40; index++) {
      await call(`${mock.url}/payments/usd/direct`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(transferBody(mock.seeded.merchantAccountId, { reference: `COMPACT-${index}` })),
      });
    }
    await mock.control.flush();
    await mock.close();
    const names = readdirSync(dir).sort();
    expect(names).toEqual(['state.jsonl', 'state.jsonl.journal']);
    for (const name of names) expect((statSync(path.join(dir, name)).mode & 0o777).toString(8)).toBe('600');
    // Compaction ran: the snapshot holds transfers, the journal is smaller than forty of them.
    expect(readFileSync(file, 'utf8')).toContain('COMPACT-');
    expect(statSync(`${file}.journal`).size).toBeLessThan(40 * 300);
    const again = await startMock({ stateFile: file, log: () => {} });
    const dump = (await call(`${again.origin}/__pacu/state`)).body;
    expect(
      dump.transfers.filter((t: { record: { reference: string } }) =>
        t.record.reference.startsWith('COMPACT-'),
      ),
    ).toHaveLength(40);
    await again.close();
  });

  it('tolerates a torn last journal line, reports it and drops only that line', async () => {
    const dir = directory();
    const file = path.join(dir, 'state.jsonl');
    const mock = await startMock({ stateFile: file, log: () => {} });
    const token = await tokenFor(mock);
    await mock.close();
    appendFileSync(`${file}.journal`, '["put","tokens",{"token":"pacu_at_torn');
    const lines: string[] = [];
    const again = await startMock({ stateFile: file, log: (line) => lines.push(line) });
    expect(lines.join('\n')).toMatch(/torn last line/);
    expect((await call(`${again.url}/users`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(
      200,
    );
    await again.close();
    expect(readFileSync(`${file}.journal`, 'utf8').endsWith('\n')).toBe(true);
  });

  it('refuses a clock advance it could not write (1e308 s) with 400, and keeps working and restartable', async () => {
    const file = path.join(directory(), 'state.jsonl');
    const mock = await startMock({ stateFile: file, clock: 'manual', log: () => {} });
    const token = await tokenFor(mock);
    const advance = await call(`${mock.origin}/__pacu/clock/advance`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"seconds":1e308}',
    });
    expect(advance.status).toBe(400);
    expect((await call(`${mock.origin}/__pacu/clock`)).status).toBe(200);
    expect((await call(`${mock.url}/users`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(
      200,
    );
    await mock.close();
    const again = await startMock({ stateFile: file, clock: 'manual', log: () => {} });
    expect((await call(`${again.origin}/__pacu/clock`)).status).toBe(200);
    await again.close();
  });

  it('refuses a corrupt line in the middle of the journal, naming the file and line', async () => {
    const file = path.join(directory(), 'state.jsonl');
    const mock = await startMock({ stateFile: file, log: () => {} });
    await tokenFor(mock);
    await mock.close();
    const journal = readFileSync(`${file}.journal`, 'utf8');
    writeFileSync(`${file}.journal`, `{oops\n${journal}`);
    const error = await startMock({ stateFile: file, log: () => {} }).catch((caught: Error) => caught);
    expect((error as Error).message).toContain(`${file}.journal is corrupt at line 1`);
  });
});
