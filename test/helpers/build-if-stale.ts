// vitest globalSetup: the processes the tests start run the compiled pacu (test/helpers/pacu-bin.ts),
// so dist/ is rebuilt first whenever it was not built from the sources as they are now.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export default function buildIfStale(): void {
  execFileSync(
    process.execPath,
    [fileURLToPath(new URL('../../scripts/build.mjs', import.meta.url)), '--if-stale'],
    {
      stdio: 'inherit',
    },
  );
}
