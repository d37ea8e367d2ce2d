import { chmod, type FileHandle, open } from 'node:fs/promises';
import { ConfigError, emptyHar, type HarEntry, PACU_VERSION } from '../spec/index.ts';

/** A HAR file being written, one entry per completed exchange. */
export interface HarRecorder {
  /** Append an (already redacted) entry; writes happen in call order. */
  add(entry: HarEntry): Promise<void>;
  readonly recorded: number;
  close(): Promise<void>;
}

const CLOSING = '\n]}}\n';

/**
 * Write a HAR 1.2 log as exchanges complete, so a crash loses at most the exchange in flight: the
 * file is a whole HAR after every write, because each entry is written over the closing brackets
 * together with a new copy of them (one positioned write, no rewrite of what came before).
 * Created 0600: a recording holds a team's traffic, redacted or not.
 */
export async function openHarRecorder(file: string): Promise<HarRecorder> {
  let handle: FileHandle;
  try {
    handle = await open(file, 'w', 0o600);
    // An existing file keeps its mode through 'w': make it 0600 too.
    await chmod(file, 0o600);
  } catch (cause) {
    throw new ConfigError(
      `pacu: cannot write the recording ${file}: ${(cause as NodeJS.ErrnoException).code ?? (cause as Error).message}`,
      { cause },
    );
  }
  const head = JSON.stringify(emptyHar({ name: 'pacu', version: PACU_VERSION })).replace(/\]\}\}$/, '');
  let offset = Buffer.byteLength(head);
  await handle.write(`${head}${CLOSING}`, 0, 'utf8');
  let recorded = 0;
  let closed = false;
  // Entries that arrive while a write is under way go out together in the next one: under load
  // that is one positioned write per batch, not one per exchange.
  let pending: string[] = [];
  let writing: Promise<void> | undefined;
  const flush = async (): Promise<void> => {
    while (pending.length > 0) {
      const text = pending.join('');
      pending = [];
      const bytes = Buffer.from(`${text}${CLOSING}`, 'utf8');
      await handle.write(bytes, 0, bytes.length, offset);
      offset += bytes.length - CLOSING.length;
    }
  };
  return {
    get recorded() {
      return recorded;
    },
    add(entry) {
      if (closed) return Promise.resolve();
      pending.push(`${recorded === 0 ? '\n' : ',\n'}${JSON.stringify(entry)}`);
      recorded += 1;
      writing ??= flush().finally(() => {
        writing = undefined;
      });
      return writing;
    },
    async close() {
      if (closed) return;
      closed = true;
      await writing?.catch(() => undefined);
      if (pending.length > 0) await flush().catch(() => undefined);
      await handle.close();
    },
  };
}
