import fc from 'fast-check';
import { describe, it } from 'vitest';
import { backoffMs } from './retry-after.ts';

describe('backoffMs', () => {
  it('grows from the base, never past the cap, never below three quarters of the plain wait', () => {
    fc.assert(
      fc.property(fc.nat(20), fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true }), (n, r) => {
        const wait = backoffMs(n, 250, 8000, () => r);
        const plain = Math.min(8000, 250 * 2 ** n);
        return wait <= plain && wait >= Math.floor(plain * 0.75);
      }),
    );
  });
});
