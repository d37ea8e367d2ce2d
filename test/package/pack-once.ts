// vitest globalSetup of the package project: `npm pack` once (prepack builds when dist/ is stale)
// and install the tarball once into a fresh project every file of the project shares, each writing
// only files of its own there. Pack and install run while the other projects' tests start: each
// package file awaits them (`installed()` in ./installed.ts).
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { TestProject } from 'vitest/node';
import { freshProject } from './fresh-project.ts';
import type { Installed } from './installed.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The fresh ESM project the tarball is installed into (and TypeScript, Node's types). */
    project: string;
    /** The file the pack and the install write their outcome to, when done. */
    installedFile: string;
  }
}

const root = fileURLToPath(new URL('../..', import.meta.url));

async function packAndInstall(dir: string, project: string): Promise<Installed> {
  const { stdout } = await promisify(execFile)('npm', ['pack', '--json', '--pack-destination', dir], {
    cwd: root,
    maxBuffer: 2 ** 26,
  });
  const [{ filename, files }] = JSON.parse(stdout) as Array<{
    filename: string;
    files: Array<{ path: string }>;
  }>;
  const tarball = path.join(dir, filename);
  const installLog = await freshProject(project, tarball);
  return { tarball, tarballFiles: files.map((file) => file.path), installLog };
}

export default function packOnce(project: TestProject): () => Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'pacu-tarball-'));
  const consumer = mkdtempSync(path.join(tmpdir(), 'pacu-consumer-'));
  const installedFile = path.join(dir, 'installed.json');
  const done = packAndInstall(dir, consumer).then(
    (installed) => writeFileSync(installedFile, JSON.stringify(installed)),
    (error: Error) => writeFileSync(installedFile, JSON.stringify({ error: error.message })),
  );
  project.provide('project', consumer);
  project.provide('installedFile', installedFile);
  return async () => {
    await done;
    rmSync(dir, { recursive: true, force: true });
    rmSync(consumer, { recursive: true, force: true });
  };
}
