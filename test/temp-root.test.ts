// The tests' temporary folders live under one folder for the run (test/helpers/temp-root.ts), which
// the run removes at its end: what a test forgets to remove does not pile up in /tmp.
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { TEMP_ROOT_PREFIX } from './helpers/temp-root.ts';

describe("the tests' temporary folders", () => {
  it('are made under the run’s own folder, by the tests and by the processes they start', () => {
    expect(path.basename(tmpdir())).toMatch(new RegExp(`^${TEMP_ROOT_PREFIX}`));
    const child = execFileSync(process.execPath, ['-e', 'process.stdout.write(require("os").tmpdir())'], {
      encoding: 'utf8',
    });
    expect(child).toBe(tmpdir());
  });
});
