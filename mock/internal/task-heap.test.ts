import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TaskHeap } from './task-heap.ts';

describe('TaskHeap', () => {
  it('pops in (time, scheduling order), through any mix of pushes and pops', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.integer({ min: 0, max: 50 }), fc.constant(-1)), { maxLength: 300 }),
        (steps) => {
          const heap = new TaskHeap();
          const model: { at: number; seq: number }[] = [];
          const run = () => {};
          steps.forEach((step, seq) => {
            if (step >= 0) {
              heap.push(step, seq, run, `k${seq}`);
              model.push({ at: step, seq });
              return;
            }
            model.sort((a, b) => a.at - b.at || a.seq - b.seq);
            const expected = model.shift();
            const got = heap.pop();
            expect(got && { at: got.at, key: got.key }).toEqual(
              expected && { at: expected.at, key: `k${expected.seq}` },
            );
          });
          expect(heap.size).toBe(model.length);
          model.sort((a, b) => a.at - b.at || a.seq - b.seq);
          expect(heap.peekAt()).toBe(model[0]?.at);
        },
      ),
      { numRuns: 300 },
    );
  });
});
