import { Option } from 'commander';
import type { Profile } from '../spec/index.ts';

/** The profiles every command takes, in the order `--help` lists them. */
export const PROFILES: readonly Profile[] = ['documented', 'strict'];

const MEANING = 'documented: the description only; strict: pacu decisions too';

/**
 * `--profile <profile>`, as every command that judges against the description declares it: the same
 * choices, parsing and usage error everywhere; a command says what the profile means for it where
 * that differs, and gives its own default (from its `*_DEFAULTS`).
 */
export function profileOption(defaultProfile: Profile, meaning: string = MEANING): Option {
  return new Option('--profile <profile>', meaning).choices(PROFILES).default(defaultProfile);
}
