import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const SCRIPT = fileURLToPath(new URL('./reference-verifier-process.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** One interaction as Pact's own verifier judged it: `ok`, or the mismatch lines. */
export interface ReferenceResult {
  readonly description: string;
  readonly passed: boolean;
  readonly problems: readonly string[];
}

/**
 * Run Pact's verifier as a Pact user would (pact-js `Verifier`, no state handlers, no pacu) on pact
 * files against a provider, in a child process so its report stays off the test output.
 */
export async function runReferenceVerifier(
  providerBaseUrl: string,
  pactFiles: readonly string[],
): Promise<ReferenceResult[]> {
  const dir = await mkdtemp(join(tmpdir(), 'pacu-reference-'));
  try {
    const out = join(dir, 'result.json');
    await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', SCRIPT, out, providerBaseUrl, ...pactFiles],
      { cwd: ROOT },
    );
    return JSON.parse(await readFile(out, 'utf8')) as ReferenceResult[];
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
