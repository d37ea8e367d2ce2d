import { ftruncateSync, readSync, writeSync } from 'node:fs';
import { PACU_VERSION } from '../spec/index.ts';
import { emptyHar } from './har.ts';

// The layout of a pacu recording on disk: the log's head, the entries each written as `\n{…}` or
// `,\n{…}`, and the closing brackets after the last. Where a continued file's next entry goes.

export const CLOSING = Buffer.from('\n]}}\n');
/** How every pacu recording starts, whatever pacu version wrote it. */
const PACU_HEAD = '{"log":{"version":"1.2","creator":{"name":"pacu"';
export const HEAD = JSON.stringify(emptyHar({ name: 'pacu', version: PACU_VERSION })).replace(/\]\}\}$/, '');
const ENTRIES = '"entries":[';
const ENTRY_START = ',\n{"startedDateTime":';
/** Places tried, newest first, when a recording ends mid-entry. */
const CUTS_TRIED = 4;

/** Where the next entry goes in a pacu recording, whether it holds one, and the bytes dropped to get there. */
export interface Opening {
  readonly offset: number;
  readonly empty: boolean;
  readonly dropped: number;
}

function read(fd: number, at: number, length: number): Buffer {
  const buffer = Buffer.alloc(length);
  readSync(fd, buffer, 0, length, at);
  return buffer;
}

/** Whether `text` up to `cut`, closed there, is a whole HAR. */
function wholeUpTo(text: string, cut: number): boolean {
  try {
    JSON.parse(`${text.slice(0, cut)}${CLOSING}`);
    return true;
  } catch {
    return false;
  }
}

/**
 * Where a recording a write left cut short (a power loss, a full disk that could not be undone) is
 * whole again: after its last whole entry. The closing brackets are written there.
 */
function repair(fd: number, size: number): Opening | undefined {
  const text = read(fd, 0, size).toString('utf8');
  const entries = text.indexOf(ENTRIES);
  if (entries < 0) return undefined;
  const first = entries + ENTRIES.length;
  const cuts: number[] = [];
  // Only the closing brackets cut short: every entry is whole.
  for (let length = CLOSING.length - 1; length > 0; length--)
    if (text.endsWith(CLOSING.subarray(0, length).toString())) cuts.push(size - length);
  let at = text.lastIndexOf(ENTRY_START);
  while (at > first && cuts.length < CUTS_TRIED) {
    cuts.push(at);
    at = text.lastIndexOf(ENTRY_START, at - 1);
  }
  cuts.push(first);
  const cut = cuts.find((place) => wholeUpTo(text, place));
  if (cut === undefined) return undefined;
  const offset = Buffer.byteLength(text.slice(0, cut));
  writeSync(fd, CLOSING, 0, CLOSING.length, offset);
  ftruncateSync(fd, offset + CLOSING.length);
  return { offset, empty: cut === first, dropped: size - offset };
}

/** Where the next entry goes in a recording pacu wrote; undefined for any other file. */
export function openingOf(fd: number, size: number): Opening | undefined {
  if (size < PACU_HEAD.length) return undefined;
  if (read(fd, 0, PACU_HEAD.length).toString('utf8') !== PACU_HEAD) return undefined;
  const tail = read(fd, Math.max(0, size - CLOSING.length - 1), Math.min(size, CLOSING.length + 1));
  if (tail.length === CLOSING.length + 1 && tail.subarray(1).equals(CLOSING))
    return { offset: size - CLOSING.length, empty: tail[0] === '['.charCodeAt(0), dropped: 0 };
  return repair(fd, size);
}
