import { closeSync, fdatasync, fstatSync, fsyncSync, openSync, writeSync } from 'node:fs';
import type { JournalEntry, JournalSink } from './store/mock-store.ts';

/** A journal file open for appending: the store's sink, group-committed once per event-loop turn. */
export interface JournalFile extends JournalSink {
  readonly bytes: number;
  /** Write what is pending now, synchronously (before a rotation or on close). */
  flushNow(): void;
  /**
   * Write what is pending and close. `sync: false` (a rotation) skips the final fsync: the file
   * stays on disk and is as durable as every batch before it; an fsync of a 64 MiB journal on the
   * event loop stalled every answer for tens of milliseconds.
   */
  close(options?: { sync: boolean }): void;
}

/** Files holding client secrets and live tokens: readable by their owner only. */
export const STATE_FILE_MODE = 0o600;

function writeAll(fd: number, text: string): void {
  const buffer = Buffer.from(text, 'utf8');
  let offset = 0;
  while (offset < buffer.length) offset += writeSync(fd, buffer, offset, buffer.length - offset);
}

/**
 * Open `file` for appending (0600). One write() per turn of the event loop, and that turn's answers
 * wait for it (`committed()`), so what was acknowledged survives `kill -9`; with `fsync` each batch
 * is fdatasync'ed first and survives power loss too (Redis's `appendfsync always`, group-committed).
 */
export function openJournalFile(file: string, fsync: boolean): JournalFile {
  const fd = openSync(file, 'a', STATE_FILE_MODE);
  let bytes = fstatSync(fd).size;
  let pending: string[] = [];
  let batch: { promise: Promise<void>; resolve: () => void; reject: (error: Error) => void } | undefined;
  let scheduled = false;
  let closed = false;

  const writePending = (): typeof batch => {
    scheduled = false;
    const current = batch;
    batch = undefined;
    if (pending.length === 0) return current;
    const text = `${pending.join('\n')}\n`;
    pending = [];
    writeAll(fd, text);
    bytes += Buffer.byteLength(text);
    return current;
  };

  const commit = (): void => {
    let current: typeof batch;
    try {
      current = writePending();
    } catch (error) {
      batch?.reject(error as Error);
      batch = undefined;
      return;
    }
    if (!current) return;
    const settle = current;
    if (!fsync) settle.resolve();
    else fdatasync(fd, (error) => (error ? settle.reject(error) : settle.resolve()));
  };

  return {
    get bytes() {
      return bytes;
    },
    append(entry: JournalEntry) {
      if (closed) throw new Error('the state journal is closed');
      pending.push(JSON.stringify(entry));
      if (!batch) {
        let resolve!: () => void;
        let reject!: (error: Error) => void;
        const promise = new Promise<void>((yes, no) => {
          resolve = yes;
          reject = no;
        });
        // A batch nobody awaits (a lifecycle step on a timer) must not become an unhandled rejection.
        promise.catch(() => {});
        batch = { promise, resolve, reject };
      }
      if (!scheduled) {
        scheduled = true;
        setImmediate(commit);
      }
    },
    committed: () => batch?.promise,
    flushNow() {
      const current = writePending();
      if (fsync) fsyncSync(fd);
      current?.resolve();
    },
    close({ sync } = { sync: true }) {
      if (closed) return;
      this.flushNow();
      if (sync) fsyncSync(fd);
      closed = true;
      closeSync(fd);
    },
  };
}
