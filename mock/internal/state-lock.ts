import { type FileLock, lockFile } from '../../http/index.ts';

// `--state FILE` has one writer, by the lock `--record FILE` has too (http/file-lock.ts).

/** A state file this process holds until `release()`. */
export type StateLock = FileLock;

/** Take `file` for this mock, or throw a one-line `ConfigError` naming the mock that has it. */
export const lockStateFile = (file: string): StateLock =>
  lockFile(file, {
    name: 'pacu mock',
    what: 'the state file',
    instead: 'give another state file',
    code: 'PACU_ERR_STATE_FILE',
  });
