import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The folder pacu's own files are found under: the one holding `spec/openapi.yaml` (the repository
 * in the sources, `dist/` once built), searched upward from this module, so the bundled command in
 * `dist/cli/chunks/` (decision 198) reads the same files as the modules tsc emits.
 */
function findRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(path.join(dir, 'spec', 'openapi.yaml'))) return dir;
    const up = path.dirname(dir);
    if (up === dir) throw new Error('pacu: cannot find its own files (spec/openapi.yaml)');
    dir = up;
  }
}

const ROOT = findRoot();

/** A file or folder of pacu's own, by its path in the repository (`spec/openapi.yaml`, `contracts/pacts/`). */
export const packageFile = (relative: string): string => path.join(ROOT, relative);
