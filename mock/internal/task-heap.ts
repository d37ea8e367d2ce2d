/** What runs when a task falls due: its time and the key it was scheduled with. */
export type DueTask = (at: number, key: string) => void;

/** A task taken off the heap. */
export interface Due {
  at: number;
  run: DueTask;
  key: string;
}

/**
 * A binary min-heap of tasks by (time, order of scheduling), kept in parallel arrays: one entry per
 * stored payment's next lifecycle step, and an object per entry (with its boxed time) was heap the
 * collector walked on every transfer. Times and sequence numbers sit unboxed in Float64Arrays.
 */
export class TaskHeap {
  private ats = new Float64Array(64);
  private seqs = new Float64Array(64);
  private runs: DueTask[] = [];
  private keys: string[] = [];
  private count = 0;

  get size(): number {
    return this.count;
  }

  /** The earliest due time, or undefined when empty. */
  peekAt(): number | undefined {
    return this.count > 0 ? this.ats[0] : undefined;
  }

  push(at: number, seq: number, run: DueTask, key: string): void {
    if (this.count === this.ats.length) this.grow();
    let index = this.count++;
    while (index > 0) {
      const parent = (index - 1) >> 1;
      if (!this.before(at, seq, parent)) break;
      this.move(parent, index);
      index = parent;
    }
    this.set(index, at, seq, run, key);
  }

  pop(): Due | undefined {
    if (this.count === 0) return undefined;
    const top: Due = { at: this.ats[0] as number, run: this.runs[0] as DueTask, key: this.keys[0] as string };
    const last = --this.count;
    const at = this.ats[last] as number;
    const seq = this.seqs[last] as number;
    const run = this.runs[last] as DueTask;
    const key = this.keys[last] as string;
    this.runs.length = last;
    this.keys.length = last;
    if (last > 0) {
      let index = 0;
      for (;;) {
        const left = index * 2 + 1;
        if (left >= last) break;
        const right = left + 1;
        const child = right < last && this.earlier(right, left) ? right : left;
        if (!this.isBefore(child, at, seq)) break;
        this.move(child, index);
        index = child;
      }
      this.set(index, at, seq, run, key);
    }
    return top;
  }

  clear(): void {
    this.count = 0;
    this.runs.length = 0;
    this.keys.length = 0;
  }

  /** Does (at, seq) come before the entry at `index`? */
  private before(at: number, seq: number, index: number): boolean {
    const other = this.ats[index] as number;
    return at < other || (at === other && seq < (this.seqs[index] as number));
  }

  /** Does the entry at `index` come before (at, seq)? */
  private isBefore(index: number, at: number, seq: number): boolean {
    const mine = this.ats[index] as number;
    return mine < at || (mine === at && (this.seqs[index] as number) < seq);
  }

  private earlier(a: number, b: number): boolean {
    return this.isBefore(a, this.ats[b] as number, this.seqs[b] as number);
  }

  private move(from: number, to: number): void {
    this.set(
      to,
      this.ats[from] as number,
      this.seqs[from] as number,
      this.runs[from] as DueTask,
      this.keys[from] as string,
    );
  }

  private set(index: number, at: number, seq: number, run: DueTask, key: string): void {
    this.ats[index] = at;
    this.seqs[index] = seq;
    this.runs[index] = run;
    this.keys[index] = key;
  }

  private grow(): void {
    const ats = new Float64Array(this.ats.length * 2);
    ats.set(this.ats);
    this.ats = ats;
    const seqs = new Float64Array(this.seqs.length * 2);
    seqs.set(this.seqs);
    this.seqs = seqs;
  }
}
