// vitest globalSetup of the package project: `npm pack` once (its prepack builds when dist/ is not
// the build of what is checked out) and install the tarball once into a fresh project that every
// file of the project (vitest.config.ts) shares. Each file writes only files of its own there
// (consumer.*, readme-*), so several run at once.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { TestProject } from 'vitest/node';
import { freshProject } from './fresh-project.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The packed pacu-kit tarball, absolute. */
    tarball: string;
    /** The paths the tarball holds, as `npm pack --json` lists them. */
    tarballFiles: string[];
    /** A fresh ESM project with the tarball installed (and TypeScript, Node's types). */
    project: string;
    /** What `npm install` of the tarball printed (its warnings included). */
    installLog: string;
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
  const tarball = path.join(dir, filename);
  const installed = await freshProject('pacu-consumer-', tarball);
  project.provide('tarball', tarball);
  project.provide(
    'tarballFiles',
    files.map((file) => file.path),
  );
  project.provide('project', installed.project);
  project.provide('installLog', installed.log);
  return () => {
    rmSync(dir, { recursive: true, force: true });
    rmSync(installed.project, { recursive: true, force: true });
  };
}
