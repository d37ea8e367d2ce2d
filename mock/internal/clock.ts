import type { ClockMode } from '../types.ts';
import { type DueTask, TaskHeap } from './task-heap.ts';

export type { DueTask } from './task-heap.ts';

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
  const heap = new TaskHeap();
  const now = (): number => (mode === 'real' ? Date.now() : manualNow);
  const runDue = (): void => {
    for (let due = heap.peekAt(); due !== undefined && due <= now(); due = heap.peekAt()) {
      const task = heap.pop();
      task?.run(task.at, task.key);
    }
  };
  // Real clocks keep one timer, for the earliest task only.
  const arm = (): void => {
    if (mode !== 'real') return;
    if (timer) clearTimeout(timer);
    timer = undefined;
    const first = heap.peekAt();
    if (first === undefined) return;
    timer = setTimeout(
      () => {
        runDue();
        arm();
      },
      Math.min(Math.max(0, first - Date.now()), 2 ** 31 - 1),
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
      for (let due = heap.peekAt(); due !== undefined && due <= target; due = heap.peekAt()) {
        const task = heap.pop();
        if (!task) break;
        manualNow = Math.max(manualNow, task.at);
        task.run(task.at, task.key);
      }
      manualNow = target;
      return manualNow;
    },
    schedule(at, run, key = '') {
      heap.push(at, seq++, run, key);
      if (mode === 'real') {
        if (heap.peekAt() === at) arm();
      } else if (at <= manualNow) queueMicrotask(runDue); // after the response that created it
    },
    clear() {
      heap.clear();
      if (timer) clearTimeout(timer);
      timer = undefined;
    },
    pending: () => heap.size,
  };
}
