import { chmodSync, closeSync, openSync, writeSync } from 'node:fs';
import { ConfigError, emptyHar, PACU_VERSION } from '../spec/index.ts';

/** A HAR file being written, one entry per completed exchange. */
export interface HarRecorder {
  /** Append an (already redacted) entry, as JSON text; it reaches the file at the next flush(). */
  add(entryJson: string): void;
  /** Write what was added since the last flush, in one positioned write. */
  flush(): void;
  readonly recorded: number;
  close(): Promise<void>;
}

const CLOSING = '\n]}}\n';

/**
 * Write a HAR 1.2 log as exchanges complete, so a crash loses at most the exchanges in flight: the
 * file is a whole HAR after every write, because each batch of entries is written over the closing
 * brackets together with a new copy of them (one positioned write, no rewrite of what came before).
 * Created 0600: a recording holds a team's traffic, redacted or not. A failed write calls `onError`
 * once and ends the recording (the proxy goes on forwarding).
 *
 * The proxy flushes once per batch of completed exchanges (once per event-loop turn): one
 * synchronous write of a few KB into the page cache, before the loop reads more sockets. An asynchronous
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
  let offset = Buffer.byteLength(head);
  writeSync(fd, `${head}${CLOSING}`, 0, 'utf8');
  let recorded = 0;
  let closed = false;
  let pending: string[] = [];
  let failed: Error | undefined;
  const flush = (): void => {
    if (pending.length === 0 || failed) return;
    const bytes = Buffer.from(`${pending.join('')}${CLOSING}`, 'utf8');
    pending = [];
    try {
      writeSync(fd, bytes, 0, bytes.length, offset);
      offset += bytes.length - CLOSING.length;
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
    add(entryJson) {
      if (closed || failed) return;
      pending.push(`${recorded === 0 ? '\n' : ',\n'}${entryJson}`);
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
