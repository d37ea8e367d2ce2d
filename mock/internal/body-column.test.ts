import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { binaryUnit } from '../../test/helpers/binary-unit.ts';
import { createBodyColumn } from './body-column.ts';

const text = fc.oneof(
  fc.string({ maxLength: 80, size: 'medium' }),
  fc.string({ unit: 'grapheme', maxLength: 40, size: 'medium' }),
  fc.string({ unit: binaryUnit, maxLength: 20 }),
  fc.constant(''),
);

describe('createBodyColumn', () => {
  it('gives back every slot its last text, whatever was written, dropped and written over', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 24 }),
        fc.integer({ min: 0, max: 640 }),
        fc.array(fc.tuple(fc.nat(), fc.option(text, { freq: 5 })), { maxLength: 200, size: 'large' }),
        (slots, arenaBytes, steps) => {
          const column = createBodyColumn(slots, arenaBytes);
          const model = new Array<string>(slots).fill('');
          // The journal writes its slots in turn; drops hit any slot.
          let next = 0;
          const check = (): void => {
            for (let slot = 0; slot < slots; slot++) expect(column.get(slot)).toBe(model[slot]);
          };
          for (const [index, [pick, value]] of steps.entries()) {
            if (value === null) {
              const slot = pick % slots;
              column.drop(slot);
              model[slot] = '';
            } else {
              column.set(next, value);
              model[next] = value;
              next = (next + 1) % slots;
            }
            if (index % 4 === 0) check();
          }
          check();
        },
      ),
      { seed: 11, numRuns: 200, endOnFailure: true },
    );
  });
});
