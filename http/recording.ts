import {
  chmodSync,
  closeSync,
  constants,
  fstatSync,
  openSync,
  readSync,
  writeSync,
  writevSync,
} from 'node:fs';
import { ConfigError, PACU_VERSION } from '../spec/index.ts';
import { emptyHar } from './har.ts';
import { createHarWriter, harExchangeOf } from './har-entry-writer.ts';
import type { RequestObserver } from './pipeline.ts';
import type { Redactor } from './redaction.ts';

/** Where a recording goes, and how its entries are made. */
export interface RecordingOptions {
  /** The HAR file: created 0600, or continued when it is a recording pacu wrote. */
  readonly file: string;
  readonly redactor: Redactor;
  /** What a request's path was sent under: the upstream's origin and root (a proxy), the mock's origin. */
  readonly origin: () => string;
  /** A write failed: the recording stops there, the surface goes on (called once). */
  readonly onError: (error: Error) => void;
}

/** A HAR recording as an observer: each exchange is written before its answer's last bytes leave. */
export interface Recording extends RequestObserver {
  /** Entries written by this surface (a continued file holds more). */
  readonly recorded: number;
  close(): Promise<void>;
}

const CLOSING = Buffer.from('\n]}}\n');
/** The buffer a turn's entries are written into, at first; it grows for a busier turn. */
const TURN_BYTES = 64 * 1024;
/** A buffer grown past this (a turn with a long answer) is let go after its turn. */
const TURN_BYTES_KEPT = 1024 * 1024;
/** How every pacu recording starts, whatever pacu version wrote it. */
const PACU_HEAD = '{"log":{"version":"1.2","creator":{"name":"pacu"';
const HEAD = JSON.stringify(emptyHar({ name: 'pacu', version: PACU_VERSION })).replace(/\]\}\}$/, '');

/** Open a file for positioned writes without truncating it (no O_APPEND: positions would be ignored). */
function openNoTruncate(file: string): number {
  try {
    const fd = openSync(file, constants.O_RDWR | constants.O_CREAT, 0o600);
    // An existing file keeps its mode through open: make it 0600 too.
    chmodSync(file, 0o600);
    return fd;
  } catch (cause) {
    throw new ConfigError(
      `pacu: cannot write the recording ${file}: ${(cause as NodeJS.ErrnoException).code ?? (cause as Error).message}`,
      { cause },
    );
  }
}

/** Where the next entry goes in a recording pacu wrote, and whether it holds one; undefined for any other file. */
function continuation(fd: number, size: number): { offset: number; empty: boolean } | undefined {
  const head = Buffer.alloc(Math.min(size, PACU_HEAD.length));
  readSync(fd, head, 0, head.length, 0);
  const tail = Buffer.alloc(CLOSING.length + 1);
  if (size < PACU_HEAD.length + tail.length) return undefined;
  readSync(fd, tail, 0, tail.length, size - tail.length);
  if (head.toString('utf8') !== PACU_HEAD || !tail.subarray(1).equals(CLOSING)) return undefined;
  return { offset: size - CLOSING.length, empty: tail[0] === '['.charCodeAt(0) };
}

/**
 * Record every exchange of a surface in a HAR 1.2 file: the entries of an event-loop turn are
 * written in one positioned write before their answers' last bytes leave, so the file is a whole
 * HAR after every write and a kill -9 loses no answered exchange (decision 112). A pacu recording
 * is continued, never truncated; any other non-empty file is refused with one line.
 */
export function openRecording(options: RecordingOptions): Recording {
  const { file } = options;
  const fd = openNoTruncate(file);
  const size = fstatSync(fd).size;
  let offset: number;
  let empty: boolean;
  if (size === 0) {
    offset = writeSync(fd, `${HEAD}${CLOSING}`, 0, 'utf8') - CLOSING.length;
    empty = true;
  } else {
    const found = continuation(fd, size);
    if (!found) {
      closeSync(fd);
      throw new ConfigError(
        `pacu: --record ${file} exists and is not a recording pacu can continue (not a pacu HAR, or cut short): give another file; it was left as it was`,
      );
    }
    ({ offset, empty } = found);
  }
  const entryText = createHarWriter(options.redactor);
  let recorded = 0;
  let closed = false;
  let failed = false;
  // The entries made since the last flush, as the bytes that go in the file: encoded straight into
  // one reused buffer, not a buffer per piece of each entry.
  let turn = Buffer.allocUnsafe(TURN_BYTES);
  let used = 0;
  let entries = 0;
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
  const flush = (): void => {
    if (entries === 0 || failed) return;
    try {
      // The write ends with the closing brackets: the file is a whole HAR after every one.
      write();
      recorded += entries;
    } catch (error) {
      // A full disk or a revoked file: stop recording (the surface itself goes on), and say so once.
      failed = true;
      options.onError(error as Error);
    }
    used = 0;
    entries = 0;
    if (turn.length > TURN_BYTES_KEPT) turn = Buffer.allocUnsafe(TURN_BYTES);
  };
  return {
    get recorded() {
      return recorded;
    },
    end(event) {
      if (closed || failed) return;
      const entry = entryText(harExchangeOf(event, options.origin()));
      const separator = empty ? '\n' : ',\n';
      if (typeof entry.body === 'string') put(`${separator}${entry.before}${entry.body}${entry.after}`);
      else {
        put(`${separator}${entry.before}`);
        // A repeated answer's bytes (the same buffer each time): copied, not encoded again.
        room(entry.body.length);
        turn.set(entry.body, used);
        used += entry.body.length;
        put(entry.after);
      }
      entries += 1;
      empty = false;
    },
    flush,
    async close() {
      if (closed) return;
      flush();
      closed = true;
      closeSync(fd);
    },
  };
}
