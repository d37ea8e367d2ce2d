import { chmodSync, closeSync, openSync, writeSync, writevSync } from 'node:fs';
import { emptyHar, type HarEntryText } from '../http/index.ts';
import { ConfigError, PACU_VERSION } from '../spec/index.ts';

/** A HAR file being written, one entry per completed exchange. */
export interface HarRecorder {
  /** Append an (already redacted) entry, as JSON text; it reaches the file at the next flush(). */
  add(entry: HarEntryText): void;
  /** Write what was added since the last flush, in one positioned (gathering) write. */
  flush(): void;
  readonly recorded: number;
  close(): Promise<void>;
}

const CLOSING = Buffer.from('\n]}}\n');
/** Entries per gathering write: three pieces each and the closing brackets, under Linux's IOV_MAX (1024). */
const ENTRIES_PER_WRITE = 340;

/**
 * Write a HAR 1.2 log as exchanges complete, so a crash loses at most the exchanges in flight: the
 * file is a whole HAR after every write, because each batch of entries is written over the closing
 * brackets together with a new copy of them (one positioned write, no rewrite of what came before).
 * Created 0600: a recording holds a team's traffic, redacted or not. A failed write calls `onError`
 * once and ends the recording (the proxy goes on forwarding).
 *
 * The proxy flushes once per batch of completed exchanges (once per event-loop turn): one
 * synchronous gathering write of a few KB into the page cache, before the loop reads more sockets;
 * an answer body the writer remembered goes in as the same bytes each time. An asynchronous
 * write per batch went through libuv's thread pool, a thread hand-off and back per write, which on
 * the proxy's one core cost more than judging (issue 18's bench).
 */
export function openHarRecorder(file: string, onError: (error: Error) => void): HarRecorder {
  let fd: number;
  try {
    fd = openSync(file, 'w', 0o600);
    // An existing file keeps its mode through 'w': make it 0600 too.
    chmodSync(file, 0o600);
  } catch (cause) {
    throw new ConfigError(
      `pacu: cannot write the recording ${file}: ${(cause as NodeJS.ErrnoException).code ?? (cause as Error).message}`,
      { cause },
    );
  }
  const head = JSON.stringify(emptyHar({ name: 'pacu', version: PACU_VERSION })).replace(/\]\}\}$/, '');
  let offset = writeSync(fd, `${head}${CLOSING}`, 0, 'utf8') - CLOSING.length;
  let recorded = 0;
  let closed = false;
  let pending: Buffer[] = [];
  let failed: Error | undefined;
  /** Write `pieces` and the closing brackets at `offset`, all of it (a gathering write may write less). */
  const write = (pieces: Buffer[]): void => {
    pieces.push(CLOSING);
    const size = pieces.reduce((sum, piece) => sum + piece.length, 0);
    let written = writevSync(fd, pieces, offset);
    if (written < size) {
      const rest = Buffer.concat(pieces);
      while (written < size) written += writeSync(fd, rest, written, size - written, offset + written);
    }
    offset += size - CLOSING.length;
  };
  const flush = (): void => {
    if (pending.length === 0 || failed) return;
    const pieces = pending;
    pending = [];
    try {
      // Each write ends with the closing brackets: the file is a whole HAR after every one.
      for (let at = 0; at < pieces.length; at += 3 * ENTRIES_PER_WRITE)
        write(pieces.slice(at, at + 3 * ENTRIES_PER_WRITE));
    } catch (error) {
      // A full disk or a revoked file: stop recording (the proxy itself goes on), and say so once.
      failed = error as Error;
      onError(failed);
    }
  };
  return {
    get recorded() {
      return recorded;
    },
    add(entry) {
      if (closed || failed) return;
      // The body's bytes as they are; the pieces around it are short and encoded here.
      pending.push(
        Buffer.from(`${recorded === 0 ? '\n' : ',\n'}${entry.before}`),
        entry.body,
        Buffer.from(entry.after),
      );
      recorded += 1;
    },
    flush,
    async close() {
      if (closed) return;
      closed = true;
      flush();
      closeSync(fd);
    },
  };
}
