// The one ring buffer: the last N of something, the oldest overwritten, nothing moved. The mock's
// request journal keeps its fields in typed columns of the same slots (an object per request lived
// just long enough to be promoted and died in the old generation); the proxy keeps its last
// exchanges as they are.

/** The slot arithmetic of a ring of `capacity` slots: which slot the next item takes, and the slots oldest first. */
export interface RingSlots {
  readonly capacity: number;
  /** The slot the next item goes in (the oldest one's, once the ring is full). */
  take(): number;
  /** The slots that hold an item, oldest first. */
  inOrder(): number[];
}

export function ringSlots(capacity: number): RingSlots {
  const size = Math.max(0, Math.floor(capacity));
  let taken = 0;
  return {
    capacity: size,
    take() {
      const slot = taken % size;
      taken += 1;
      return slot;
    },
    inOrder() {
      const count = Math.min(taken, size);
      const first = taken - count;
      return Array.from({ length: count }, (_, index) => (first + index) % size);
    },
  };
}

/** The last `capacity` items pushed, oldest first. */
export interface Ring<T> {
  push(item: T): void;
  items(): T[];
}

/** A ring of `capacity` items; with 0, nothing is kept. */
export function createRing<T>(capacity: number): Ring<T> {
  const slots = ringSlots(capacity);
  const items: T[] = [];
  return {
    push(item) {
      if (slots.capacity > 0) items[slots.take()] = item;
    },
    items: () => slots.inOrder().map((slot) => items[slot] as T),
  };
}
