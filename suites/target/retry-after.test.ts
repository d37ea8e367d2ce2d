import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { backoffMs, retryAfterMs } from './retry-after.ts';

describe('retryAfterMs', () => {
  it('reads delay-seconds', () => {
    fc.assert(fc.property(fc.nat(86_400), (seconds) => retryAfterMs(String(seconds)) === seconds * 1000));
  });

  it('reads an HTTP date as the time left until it', () => {
    const now = Date.UTC(2026, 0, 1, 12, 0, 0);
    expect(retryAfterMs('Thu, 01 Jan 2026 12:00:03 GMT', now)).toBe(3000);
    expect(retryAfterMs('Thu, 01 Jan 2026 11:59:00 GMT', now)).toBe(0);
  });

  it('gives nothing for an absent or unreadable header', () => {
    expect(retryAfterMs(undefined)).toBeUndefined();
    expect(retryAfterMs('soon')).toBeUndefined();
    expect(retryAfterMs('-1')).toBeUndefined();
  });
});

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
