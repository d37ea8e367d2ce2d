// One writer per state file: a second `pacu mock --state FILE` refuses while the first serves, and a
// lock left by a mock that was killed is taken over. Two mocks on one journal would each replay
// only their own writes and interleave lines in it.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { PACU_BIN } from './helpers/pacu-bin.ts';
import { postJson, tokenFor, transferBody } from './mock-helpers.ts';
import { endOf, mockOf, startCli } from './mock-process.ts';

const stateFile = (): string => path.join(mkdtempSync(path.join(tmpdir(), 'pacu-lock-')), 'state.jsonl');

/** `pacu mock --state FILE` to its end, as a second mock started beside the first would run. */
async function secondMock(file: string): Promise<{ code: number; stderr: string }> {
  try {
    // One that does start serves until stopped: the timeout ends it, and the test then fails.
    await promisify(execFile)(
      process.execPath,
      [PACU_BIN, 'mock', '--json', '--port', '0', '--state', file],
      {
        timeout: 30_000,
      },
    );
    return { code: 0, stderr: '' };
  } catch (error) {
    const failed = error as { code: number | null; stderr: string };
    return { code: failed.code ?? -1, stderr: failed.stderr };
  }
}

describe('pacu mock --state is locked to one mock', () => {
  it('refuses a second mock on the same state file with one line naming the first one’s pid, exit 2', async () => {
    const file = stateFile();
    const first = await startCli(['--state', file]);
    try {
      const second = await secondMock(file);
      expect(second.code).toBe(2);
      expect(second.stderr.trim().split('\n')).toHaveLength(1);
      expect(second.stderr).toMatch(new RegExp(`^pacu: .*${file}.* in use .*pid ${first.info.pid}\\b`));
      // The first still serves, and its journal has one writer.
      const mock = mockOf(first.info);
      expect(await tokenFor(mock)).toBeTruthy();
    } finally {
      const done = endOf(first.child);
      first.child.kill('SIGTERM');
      expect(await done).toEqual({ code: 0, signal: null });
    }
    // A graceful stop gives the file up.
    expect(existsSync(`${file}.lock`)).toBe(false);
  }, 60_000);

  it('takes over the lock of a mock killed with SIGKILL, and replays what it acknowledged', async () => {
    const file = stateFile();
    const first = await startCli(['--state', file]);
    const mock = mockOf(first.info);
    const token = await tokenFor(mock);
    const body = transferBody(first.info.merchantAccountId as string, { reference: 'LOCKED-1' });
    const sent = await postJson(`${mock.url}/payments/usd/direct`, token, body);
    expect(sent.status).toBe(200);
    const done = endOf(first.child);
    process.kill(Number(first.info.pid), 'SIGKILL');
    await done;
    expect(JSON.parse(readFileSync(`${file}.lock`, 'utf8')).pid).toBe(Number(first.info.pid));
    const again = await startCli(['--state', file]);
    try {
      const replay = await postJson(`${again.info.url}/payments/usd/direct`, token, body);
      expect(replay.body.data.transaction_id).toBe(sent.body.data.transaction_id);
      expect(JSON.parse(readFileSync(`${file}.lock`, 'utf8')).pid).toBe(Number(again.info.pid));
    } finally {
      const stopped = endOf(again.child);
      again.child.kill('SIGTERM');
      await stopped;
    }
  }, 60_000);
});
