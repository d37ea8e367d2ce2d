import type { ClockMode } from '../types.ts';

/** What runs when a task falls due: its time and the key it was scheduled with. */
export type DueTask = (at: number, key: string) => void;

interface Task {
  at: number;
  seq: number;
  run: DueTask;
  key: string;
}

/** The mock's time and the work due at future times (lifecycle steps), kept in a binary heap. */
export interface MockClock {
  readonly mode: ClockMode;
  now(): number;
  /** Manual clocks only: move time forward and run every task that falls due, in order. */
  advance(ms: number): number;
  /**
   * Run `run(at, key)` at `at`. A shared `run` and a key keep one small object per task: a closure
   * per stored payment (and its context) was heap the collector walked on every transfer.
   */
  schedule(at: number, run: DueTask, key?: string): void;
  /** Forget every scheduled task (reset, close). */
  clear(): void;
  pending(): number;
}

export function createClock(mode: ClockMode, start: number = Date.now()): MockClock {
  let manualNow = start;
  let seq = 0;
  let timer: NodeJS.Timeout | undefined;
  const heap: Task[] = [];
  const before = (a: Task, b: Task): boolean => a.at < b.at || (a.at === b.at && a.seq < b.seq);

  const push = (task: Task): void => {
    heap.push(task);
    let index = heap.length - 1;
    while (index > 0) {
      const parent = (index - 1) >> 1;
      if (!before(heap[index] as Task, heap[parent] as Task)) break;
      [heap[index], heap[parent]] = [heap[parent] as Task, heap[index] as Task];
      index = parent;
    }
  };
  const pop = (): Task | undefined => {
    const top = heap[0];
    const last = heap.pop();
    if (heap.length > 0 && last) {
      heap[0] = last;
      let index = 0;
      for (;;) {
        const left = index * 2 + 1;
        const right = left + 1;
        let smallest = index;
        if (left < heap.length && before(heap[left] as Task, heap[smallest] as Task)) smallest = left;
        if (right < heap.length && before(heap[right] as Task, heap[smallest] as Task)) smallest = right;
        if (smallest === index) break;
        [heap[index], heap[smallest]] = [heap[smallest] as Task, heap[index] as Task];
        index = smallest;
      }
    }
    return top;
  };
  const now = (): number => (mode === 'real' ? Date.now() : manualNow);
  const runDue = (): void => {
    while (heap.length > 0 && (heap[0] as Task).at <= now()) {
      const task = pop() as Task;
      task.run(task.at, task.key);
    }
  };
  // Real clocks keep one timer, for the earliest task only.
  const arm = (): void => {
    if (mode !== 'real') return;
    if (timer) clearTimeout(timer);
    timer = undefined;
    const first = heap[0];
    if (!first) return;
    timer = setTimeout(
      () => {
        runDue();
        arm();
      },
      Math.min(Math.max(0, first.at - Date.now()), 2 ** 31 - 1),
    );
    timer.unref();
  };

  return {
    mode,
    now,
    advance(ms) {
      if (mode !== 'manual') throw new Error('only a manual clock can be advanced');
      const target = manualNow + ms;
      // Step through due tasks one by one so each runs with the clock at its own due time.
      while (heap.length > 0 && (heap[0] as Task).at <= target) {
        const task = pop() as Task;
        manualNow = Math.max(manualNow, task.at);
        task.run(task.at, task.key);
      }
      manualNow = target;
      return manualNow;
    },
    schedule(at, run, key = '') {
      push({ at, seq: seq++, run, key });
      if (mode === 'real') {
        if (heap[0]?.at === at) arm();
      } else if (at <= manualNow) queueMicrotask(runDue); // after the response that created it
    },
    clear() {
      heap.length = 0;
      if (timer) clearTimeout(timer);
      timer = undefined;
    },
    pending: () => heap.length,
  };
}
