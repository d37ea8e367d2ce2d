import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSpec } from '../../spec/index.ts';
import { seedState } from './seed.ts';
import { readStateFile, writeStateFile } from './state-file.ts';

const spec = await loadSpec();
const directory = (): string => mkdtempSync(path.join(tmpdir(), 'pacu-state-'));

describe('state file', () => {
  it('round-trips the seeded state and leaves no temporary file behind', async () => {
    const dir = directory();
    const file = path.join(dir, 'state.jsonl');
    const state = seedState(5);
    await writeStateFile(file, state, 1234);
    expect(readdirSync(dir)).toEqual(['state.jsonl']);
    const loaded = await readStateFile(file, spec);
    expect(loaded?.now).toBe(1234);
    expect(loaded?.state.seeded).toEqual(state.seeded);
    expect([...(loaded?.state.cards.keys() ?? [])]).toEqual([...state.cards.keys()]);
    expect(loaded?.state.users).toEqual(state.users);
  });

  it('is absent rather than an error when the file does not exist yet', async () => {
    expect(await readStateFile(path.join(directory(), 'none.jsonl'), spec)).toBeUndefined();
  });

  it.each([
    ['not JSON', (text: string) => `${text}{oops\n`, 'not JSON'],
    [
      'a record that breaks the spec',
      (text: string) => text.replace('"account_status":"ACTIVE"', '"account_status":"OPEN"'),
      'accounts item',
    ],
    ['a foreign header', () => '{"hello":1}\n', 'not a pacu mock state header'],
    ['an empty file', () => '', 'empty'],
  ])('refuses %s, naming the file and line', async (_name, corrupt, needle) => {
    const file = path.join(directory(), 'state.jsonl');
    await writeStateFile(file, seedState(1), 0);
    writeFileSync(file, corrupt(readFileSync(file, 'utf8')));
    const error = await readStateFile(file, spec).catch((caught: Error) => caught);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toContain(`state file ${file} is corrupt at line`);
    expect((error as Error).message).toContain(needle);
  });
});
