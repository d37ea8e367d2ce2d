import type { Profile } from '../spec/index.ts';
import { packageFile } from '../spec/package-files.ts';

/** The provider name in pacu's own pacts. */
export const PACU_PROVIDER = 'pacu-api';

/**
 * Where pacu's own pacts live (committed, so `pacu verify` needs no consumer run). They encode only
 * what the interface description states, so every correct provider passes them.
 */
export const PACU_PACT_DIR: string = `${packageFile('contracts/pacts')}/`;

/** pacu's pacts for its decisions (e.g. 409 for a reused reference): verified under `--profile strict` only. */
export const PACU_STRICT_PACT_DIR: string = `${packageFile('contracts/pacts/strict')}/`;

/** pacu's own pact folders a profile verifies: the documented ones, plus the decisions under strict. */
export function pacuPactDirs(profile: Profile): string[] {
  return profile === 'strict' ? [PACU_PACT_DIR, PACU_STRICT_PACT_DIR] : [PACU_PACT_DIR];
}
