import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SPEC_FILE, loadSpec, SpecError } from './index.ts';

describe('loadSpec', () => {
  it('reads a file once per process and hands every caller the same Spec', async () => {
    const [first, second] = await Promise.all([loadSpec(), loadSpec(DEFAULT_SPEC_FILE)]);
    expect(second).toBe(first);
    expect(first.operations).toHaveLength(9);
  });

  it('does not keep a failed load: the next call reads the file again', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'pacu-spec-'));
    const file = path.join(dir, 'openapi.yaml');
    await expect(loadSpec(file)).rejects.toThrow(SpecError);
    await copyFile(DEFAULT_SPEC_FILE, file);
    expect((await loadSpec(file)).operations).toHaveLength(9);
    await rm(dir, { recursive: true, force: true });
  });
});
