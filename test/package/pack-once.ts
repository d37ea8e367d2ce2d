// vitest globalSetup of the package tests: `npm pack` once (it runs `prepare`, so the tarball holds a
// fresh build of what is checked out); each test file installs it into a fresh project of its own.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The packed pacu-kit tarball, absolute. */
    tarball: string;
    /** The paths the tarball holds, as `npm pack --json` lists them. */
    tarballFiles: string[];
  }
}

const root = fileURLToPath(new URL('../..', import.meta.url));

export default async function packOnce(project: TestProject): Promise<() => void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'pacu-tarball-'));
  const { stdout } = await promisify(execFile)('npm', ['pack', '--json', '--pack-destination', dir], {
    cwd: root,
    maxBuffer: 2 ** 26,
  });
  const [{ filename, files }] = JSON.parse(stdout) as Array<{
    filename: string;
    files: Array<{ path: string }>;
  }>;
  project.provide('tarball', path.join(dir, filename));
  project.provide(
    'tarballFiles',
    files.map((file) => file.path),
  );
  return () => rmSync(dir, { recursive: true, force: true });
}
