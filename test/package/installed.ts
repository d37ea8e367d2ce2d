// What the package project's global setup (./pack-once.ts) packed and installed, once it has.
import { existsSync, readFileSync } from 'node:fs';
import { inject } from 'vitest';

export interface Installed {
  /** The packed pacu-kit tarball, absolute. */
  readonly tarball: string;
  /** The paths the tarball holds, as `npm pack --json` lists them. */
  readonly tarballFiles: readonly string[];
  /** What `npm install` of the tarball printed (its warnings included). */
  readonly installLog: string;
}

/** Wait for the pack and the install; a failure of either fails the file that waits, with npm's words. */
export async function installed(): Promise<Installed> {
  const file = inject('installedFile');
  while (!existsSync(file)) await new Promise((resolve) => setTimeout(resolve, 100));
  const outcome = JSON.parse(readFileSync(file, 'utf8')) as Installed | { error: string };
  if ('error' in outcome) throw new Error(`npm pack or install failed: ${outcome.error}`);
  return outcome;
}
