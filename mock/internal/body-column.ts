/** Bytes of the arena per slot of the journal, and the most any journal's arena takes. */
const ARENA_BYTES_PER_SLOT = 512;
const ARENA_MAX_BYTES = 8 * 1024 * 1024;

/** ES2024's String.prototype.isWellFormed (Node has it; TypeScript's ES2023 lib does not). */
const wellFormed = (text: string): boolean => (text as unknown as { isWellFormed(): boolean }).isWellFormed();

/** The request journal's body texts, one per slot of its ring. */
export interface BodyColumn {
  set(slot: number, text: string): void;
  get(slot: number): string;
  /** Forget the slot's text. */
  drop(slot: number): void;
}

/**
 * Body texts kept as UTF-8 in one buffer outside the JS heap, written in turn like a ring: a text
 * per request held for the journal's whole span was young when the collector copied it and old
 * when it died, on every request. A text too large for the buffer, or whose bytes the buffer needs
 * again while its slot still holds it, is kept as a string instead (every slot's text stays whole).
 */
export function createBodyColumn(
  slots: number,
  arenaBytes = Math.min(slots * ARENA_BYTES_PER_SLOT, ARENA_MAX_BYTES),
): BodyColumn {
  const arena = Buffer.alloc(arenaBytes);
  const largest = Math.floor(arenaBytes / 8);
  const strings = new Array<string>(slots).fill('');
  // Where each slot's bytes start, counted over everything ever written; -1: held in `strings`.
  const start = new Float64Array(slots).fill(-1);
  const length = new Int32Array(slots);
  // The slots written to the arena, oldest first, with where each started (a ring of its own).
  const queuedSlot = new Int32Array(slots);
  const queuedStart = new Float64Array(slots);
  let head = 0;
  let queued = 0;
  let written = 0;

  const read = (slot: number): string => {
    const from = (start[slot] as number) % arenaBytes;
    return arena.toString('utf8', from, from + (length[slot] as number));
  };
  /** The oldest queued slot leaves the queue; if its bytes are still its text, they become a string. */
  const dequeue = (): void => {
    const slot = queuedSlot[head] as number;
    if (start[slot] === queuedStart[head]) {
      strings[slot] = read(slot);
      start[slot] = -1;
    }
    head = (head + 1) % slots;
    queued--;
  };

  return {
    set(slot, text) {
      start[slot] = -1;
      strings[slot] = text;
      if (text.length === 0 || text.length > largest) return;
      const bytes = Buffer.byteLength(text);
      // A lone surrogate would come back from UTF-8 as U+FFFD: such a text stays a string.
      if (bytes > largest || !wellFormed(text)) return;
      let at = written % arenaBytes;
      if (at + bytes > arenaBytes) {
        written += arenaBytes - at;
        at = 0;
      }
      // Bytes written before `written + bytes - arenaBytes` are about to be written over.
      while (queued > 0 && (queuedStart[head] as number) < written + bytes - arenaBytes) dequeue();
      if (queued === slots) dequeue();
      arena.write(text, at, bytes, 'utf8');
      strings[slot] = '';
      start[slot] = written;
      length[slot] = bytes;
      const tail = (head + queued) % slots;
      queuedSlot[tail] = slot;
      queuedStart[tail] = written;
      queued++;
      written += bytes;
    },
    get: (slot) => ((start[slot] as number) >= 0 ? read(slot) : (strings[slot] as string)),
    drop(slot) {
      start[slot] = -1;
      strings[slot] = '';
    },
  };
}
