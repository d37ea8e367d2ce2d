import { readFileSync } from 'node:fs';
import { packageFile } from './package-files.ts';

/**
 * pacu's own package.json: beside `spec/` in the sources, one folder above it once built (`dist/`).
 * Found by name, not by a fixed relative path, so both layouts read the same file.
 */
function readPackageVersion(): string {
  for (const relative of ['package.json', '../package.json']) {
    try {
      const manifest = JSON.parse(readFileSync(packageFile(relative), 'utf8')) as {
        name?: string;
        version?: string;
      };
      if (manifest.name === 'pacu-kit' && manifest.version) return manifest.version;
    } catch {
      // Not there in this layout: try the next one.
    }
  }
  throw new Error('pacu: cannot find its own package.json');
}

/** The version of pacu that is running, as reports and `pacu --version` print it. */
export const PACU_VERSION: string = readPackageVersion();
