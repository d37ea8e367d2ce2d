import {
  closeSync,
  constants,
  fchmodSync,
  fstatSync,
  ftruncateSync,
  openSync,
  writeSync,
  writevSync,
} from 'node:fs';
import { ConfigError } from '../spec/index.ts';
import { type FileLock, lockFile } from './file-lock.ts';
import { createHarWriter, harExchangeOf } from './har-entry-writer.ts';
import type { RequestObserver } from './pipeline.ts';
import { CLOSING, HEAD, openingOf } from './recording-file.ts';
import type { Redactor } from './redaction.ts';

/** What a surface does when its recording cannot be written: go on serving, or stop. */
export type RecordErrors = 'serve' | 'stop';

/** Where a recording goes, and how its entries are made. */
export interface RecordingOptions {
  /** The HAR file: created 0600, or continued when it is a recording pacu wrote. */
  readonly file: string;
  readonly redactor: Redactor;
  /** What a request's path was sent under: the upstream's origin and root (a proxy), the mock's origin. */
  readonly origin: () => string;
  /** Who records (`pacu proxy`): the lock names it to a second taker, and messages start with it. */
  readonly surface: string;
  /** `serve` (the default): a turn that cannot be written is not recorded, and later ones are tried. */
  readonly onError: RecordErrors;
  /** Lines for the surface's log: at most one a second about write errors. */
  readonly log: (line: string) => void;
  /** With `onError: 'stop'`, told once when a write failed: the surface stops. */
  readonly stop?: (error: Error) => void;
}

/** A HAR recording as an observer: each exchange is written before its answer's last bytes leave. */
export interface Recording extends RequestObserver {
  /** Entries written by this surface (a continued file holds more). */
  readonly recorded: number;
  /** Exchanges answered but not recorded: their turn's write failed. */
  readonly lost: number;
  close(): Promise<void>;
}

/** The buffer a turn's entries are written into, at first; it grows for a busier turn. */
const TURN_BYTES = 64 * 1024;
/** A buffer grown past this (a turn with a long answer) is let go after its turn. */
const TURN_BYTES_KEPT = 1024 * 1024;
/** Write errors are told at most this often. */
const SAY_EVERY_MS = 1000;

/** Open a file for positioned writes without truncating it (no O_APPEND: positions would be ignored). */
function openNoTruncate(file: string): number {
  try {
    return openSync(file, constants.O_RDWR | constants.O_CREAT, 0o600);
  } catch (cause) {
    throw new ConfigError(
      `pacu: cannot write the recording ${file}: ${(cause as NodeJS.ErrnoException).code ?? (cause as Error).message}`,
      { cause },
    );
  }
}

const codeOf = (error: Error): string => (error as NodeJS.ErrnoException).code ?? error.message;

/**
 * Record every exchange of a surface in a HAR 1.2 file, locked to this process: each turn's entries
 * in one positioned write before their answers leave (decision 112), a failed write undone back to
 * the last whole entry and said at most once a second (decision 167). A pacu recording is continued;
 * any other non-empty file is refused with one line and left as it was, its mode too.
 */
export function openRecording(options: RecordingOptions): Recording {
  const { file } = options;
  const lock: FileLock = lockFile(file, {
    name: options.surface,
    what: 'the recording',
    instead: 'give another --record file',
    code: 'PACU_ERR_CONFIG',
  });
  let fd: number;
  let offset: number;
  let empty: boolean;
  try {
    fd = openNoTruncate(file);
    const size = fstatSync(fd).size;
    if (size === 0) {
      offset = writeSync(fd, `${HEAD}${CLOSING}`, 0, 'utf8') - CLOSING.length;
      empty = true;
    } else {
      const opening = openingOf(fd, size);
      if (!opening) {
        closeSync(fd);
        throw new ConfigError(
          `pacu: --record ${file} exists and is not a recording pacu can continue (not a pacu HAR): give another file; it was left as it was`,
        );
      }
      if (opening.dropped > 0)
        options.log(
          `${options.surface}: --record ${file} ended mid-entry (a write was cut short): continued after its last whole entry (${opening.dropped} bytes dropped)`,
        );
      ({ offset, empty } = opening);
    }
    // An existing file keeps its mode through open: a recording holds traffic, 0600 like a new one.
    fchmodSync(fd, 0o600);
  } catch (error) {
    lock.release();
    throw error;
  }
  const entryText = createHarWriter(options.redactor);
  let recorded = 0;
  let lost = 0;
  let closed = false;
  let stopped = false;
  /** The file's closing brackets are not where they belong (a write failed and could not be undone). */
  let torn = false;
  let saidAt = Number.NEGATIVE_INFINITY;
  let unsaid = 0;
  let failing = false;
  // The entries made since the last flush, as the bytes that go in the file: encoded straight into
  // one reused buffer, not a buffer per piece of each entry.
  let turn = Buffer.allocUnsafe(TURN_BYTES);
  let used = 0;
  let entries = 0;
  let emptyBefore = empty;
  const room = (bytes: number): void => {
    if (used + bytes <= turn.length) return;
    const larger = Buffer.allocUnsafe(Math.max(2 * turn.length, used + bytes));
    turn.copy(larger, 0, 0, used);
    turn = larger;
  };
  const put = (text: string): void => {
    // A UTF-16 unit takes at most three bytes of UTF-8.
    room(3 * text.length);
    used += turn.write(text, used);
  };
  /** Write the turn and the closing brackets at the offset, all of it (a gathering write may write less). */
  const write = (): void => {
    const total = used + CLOSING.length;
    let written = writevSync(fd, [turn.subarray(0, used), CLOSING], offset);
    while (written < total)
      written +=
        written < used
          ? writeSync(fd, turn, written, used - written, offset + written)
          : writeSync(fd, CLOSING, written - used, total - written, offset + written);
    offset += used;
  };
  /** Put the closing brackets back at the offset and cut what a failed write left after them. */
  const undo = (): void => {
    try {
      // These bytes were the closing brackets before: rewriting them needs no new space on disk.
      writeSync(fd, CLOSING, 0, CLOSING.length, offset);
      ftruncateSync(fd, offset + CLOSING.length);
      torn = false;
    } catch {
      torn = true;
    }
  };
  const say = (error: Error | undefined): void => {
    const now = Date.now();
    if (error === undefined) {
      if (unsaid > 0 || failing)
        options.log(
          `${options.surface}: recording in ${file} again; ${lost} exchanges in all were answered but not recorded`,
        );
      failing = false;
      unsaid = 0;
      saidAt = Number.NEGATIVE_INFINITY;
      return;
    }
    failing = true;
    if (now - saidAt < SAY_EVERY_MS) return;
    options.log(
      `${options.surface}: cannot write the recording ${file} (${codeOf(error)}): ${unsaid} exchanges answered but not recorded${saidAt === Number.NEGATIVE_INFINITY ? '' : ' since the last message'}; it is a whole HAR up to the last one recorded${options.onError === 'stop' ? '; stopping (--on-record-error stop)' : ', and each next turn is tried again'}`,
    );
    saidAt = now;
    unsaid = 0;
  };
  const flush = (): boolean => {
    if (entries === 0 || stopped) return !stopped;
    let kept = true;
    try {
      if (torn) undo();
      if (torn) throw Object.assign(new Error('the closing brackets could not be put back'), { code: 'EIO' });
      // The write ends with the closing brackets: the file is a whole HAR after every one.
      write();
      recorded += entries;
      emptyBefore = empty;
      if (failing) say(undefined);
    } catch (error) {
      kept = false;
      lost += entries;
      unsaid += entries;
      empty = emptyBefore;
      undo();
      say(error as Error);
      if (options.onError === 'stop') {
        stopped = true;
        options.stop?.(error as Error);
      }
    }
    used = 0;
    entries = 0;
    if (turn.length > TURN_BYTES_KEPT) turn = Buffer.allocUnsafe(TURN_BYTES);
    // Serving on: the answers leave, recorded or not. Stopping: they are cut, none unrecorded leaves.
    return kept || options.onError === 'serve';
  };
  return {
    get recorded() {
      return recorded;
    },
    get lost() {
      return lost;
    },
    end(event) {
      if (closed || stopped) return;
      const entry = entryText(harExchangeOf(event, options.origin()));
      const separator = empty ? '\n' : ',\n';
      // The pieces go in one by one: joined, the body's text was copied once more before encoding.
      put(`${separator}${entry.before}`);
      if (typeof entry.body === 'string') put(entry.body);
      else {
        // A repeated answer's bytes (the same buffer each time): copied, not encoded again.
        room(entry.body.length);
        turn.set(entry.body, used);
        used += entry.body.length;
      }
      put(entry.after);
      entries += 1;
      empty = false;
    },
    flush,
    async close() {
      if (closed) return;
      flush();
      closed = true;
      closeSync(fd);
      lock.release();
    },
  };
}
