import { createReadStream } from 'node:fs';
import { ConfigError } from '../../spec/index.ts';

/** A state file or journal line pacu cannot read: one line naming the file and the line, exit 2. */
export function corrupt(file: string, line: number, why: string): ConfigError {
  return new ConfigError(
    `pacu: state file ${file} is corrupt at line ${line}: ${why}. Fix or delete it, or start without --state`,
    { code: 'PACU_ERR_STATE_FILE' },
  );
}

/** One line of a JSON Lines file, parsed. */
export interface JsonLine {
  /** From 1, counting blank lines. */
  readonly number: number;
  readonly value: unknown;
  /** Bytes of the file up to and including this line's newline. */
  readonly endsAt: number;
}

/** What a JSON Lines file ended with, past its last newline. */
export interface JsonLinesEnd {
  /** Bytes of the file up to and including its last newline. */
  readonly wholeBytes: number;
  /** The text after the last newline ('' when the file ends with one). */
  readonly rest: string;
  readonly lastNumber: number;
}

/**
 * The one reader of the mock's JSON Lines files (the state snapshot and its journal): each line
 * parsed in order, blank ones skipped; a line that is not JSON stops the read with the file and
 * its number (one line, exit 2). A last line without its newline is left to the caller (`end`):
 * a snapshot was written whole and may end so, a journal's torn line was never acknowledged.
 */
export async function* readJsonLines(
  file: string,
  end: (last: JsonLinesEnd) => string | undefined,
): AsyncGenerator<JsonLine> {
  let rest = '';
  let number = 0;
  let wholeBytes = 0;
  const parsed = (line: string): JsonLine => {
    try {
      return { number, value: JSON.parse(line), endsAt: wholeBytes };
    } catch (error) {
      throw corrupt(file, number, `not JSON (${(error as Error).message})`);
    }
  };
  for await (const chunk of createReadStream(file, { encoding: 'utf8', highWaterMark: 1 << 20 })) {
    const lines = (rest + chunk).split('\n');
    rest = lines.pop() ?? '';
    for (const raw of lines) {
      number += 1;
      wholeBytes += Buffer.byteLength(raw) + 1;
      const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
      if (line.trim() !== '') yield parsed(line);
    }
  }
  // The caller says whether the text after the last newline is a line (returned) or is dropped.
  const last = rest.trim() === '' ? undefined : end({ wholeBytes, rest, lastNumber: number });
  if (last !== undefined) {
    number += 1;
    wholeBytes += Buffer.byteLength(rest);
    yield parsed(last);
  }
}
