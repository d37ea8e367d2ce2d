import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { lockStateFile } from './state-lock.ts';

const stateFile = (): string => path.join(mkdtempSync(path.join(tmpdir(), 'pacu-lock-unit-')), 'state.jsonl');
const holderOf = (file: string): { pid: number } => JSON.parse(readFileSync(`${file}.lock`, 'utf8'));

/** The pid of a process that has ended (and was reaped). */
const deadPid = (): number => spawnSync(process.execPath, ['-e', '0']).pid as number;

describe('lockStateFile', () => {
  it('holds the file until released, and refuses a second taker naming the holder', () => {
    const file = stateFile();
    const lock = lockStateFile(file);
    expect(holderOf(file).pid).toBe(process.pid);
    expect(() => lockStateFile(file)).toThrow(new RegExp(`in use by pacu mock pid ${process.pid}:`));
    lock.release();
    expect(existsSync(`${file}.lock`)).toBe(false);
    lockStateFile(file).release();
  });

  it('takes over a lock whose process is gone, or whose pid now belongs to a later process', () => {
    for (const stale of [
      { pid: deadPid(), host: hostname() },
      // This very pid, started at another time: a reused pid, not the holder.
      { pid: process.pid, start: '1', host: hostname() },
    ]) {
      const file = stateFile();
      writeFileSync(`${file}.lock`, JSON.stringify(stale));
      const lock = lockStateFile(file);
      expect(holderOf(file).pid).toBe(process.pid);
      lock.release();
    }
  });

  it('takes over a lock it cannot read, and leaves a lock from another host alone', () => {
    const garbled = stateFile();
    writeFileSync(`${garbled}.lock`, 'not json');
    lockStateFile(garbled).release();
    const remote = stateFile();
    writeFileSync(`${remote}.lock`, JSON.stringify({ pid: deadPid(), host: `not-${hostname()}` }));
    expect(() => lockStateFile(remote)).toThrow(/in use by pacu mock pid \d+ on not-/);
  });

  it('releases only its own lock: one taken over after it is left alone', () => {
    const file = stateFile();
    const lock = lockStateFile(file);
    writeFileSync(`${file}.lock`, JSON.stringify({ pid: deadPid(), host: hostname() }));
    lock.release();
    expect(existsSync(`${file}.lock`)).toBe(true);
  });
});
