// vitest globalSetup, first of all: every folder the tests (and the processes they start) make in
// the system's temporary directory goes under one folder for the run, removed when the run ends,
// so a test that forgets its folder leaves nothing behind in /tmp.
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** How the run's folder is named: test/temp-root.test.ts asks that the tests' own is one of them. */
export const TEMP_ROOT_PREFIX = 'pacu-run-';

export default function tempRoot(): () => void {
  // Each project of the run calls this; the first one's folder serves them all.
  if (path.basename(tmpdir()).startsWith(TEMP_ROOT_PREFIX)) return () => {};
  const before = process.env.TMPDIR;
  const root = mkdtempSync(path.join(tmpdir(), TEMP_ROOT_PREFIX));
  // As /tmp is: the cluster's PostgreSQL runs as its own user and makes its folders here too.
  chmodSync(root, 0o1777);
  // os.tmpdir() reads TMPDIR at each call, here and in every worker and child started from now on.
  process.env.TMPDIR = root;
  return () => {
    if (before === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = before;
    rmSync(root, { recursive: true, force: true });
  };
}
