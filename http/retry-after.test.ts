import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { httpDateMs, retryAfterMs } from './retry-after.ts';

const NOW = Date.UTC(2026, 0, 1, 12, 0, 0);

describe('retryAfterMs', () => {
  it('reads delay-seconds, spaces around them too', () => {
    fc.assert(fc.property(fc.nat(86_400), (seconds) => retryAfterMs(` ${seconds} `) === seconds * 1000));
  });

  it('reads an IMF-fixdate as the time left until it, 0 for one past', () => {
    expect(retryAfterMs('Thu, 01 Jan 2026 12:00:03 GMT', NOW)).toBe(3000);
    expect(retryAfterMs('Thu, 01 Jan 2026 11:59:00 GMT', NOW)).toBe(0);
  });

  it('reads the obsolete RFC 850 and asctime forms as GMT (RFC 9110 5.6.7)', () => {
    expect(retryAfterMs('Thursday, 01-Jan-26 12:00:05 GMT', NOW)).toBe(5000);
    // asctime has no zone: it is GMT, not this machine's local time (Date.parse reads it as local).
    expect(retryAfterMs('Thu Jan  1 12:00:07 2026', NOW)).toBe(7000);
  });

  it('any toUTCString() date is read back to the second', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 4_102_444_800 }), (seconds) => {
        const at = seconds * 1000;
        return httpDateMs(new Date(at).toUTCString()) === at;
      }),
    );
  });

  it('gives nothing for an absent or unreadable value, and takes the first of a repeated header', () => {
    for (const value of [
      undefined,
      '',
      'soon',
      '-1',
      '1.5',
      '2026-01-01T12:00:00Z',
      'Thu, 31 Feb 2026 12:00:00 GMT',
    ])
      expect(retryAfterMs(value, NOW)).toBeUndefined();
    expect(retryAfterMs(['2', '9'], NOW)).toBe(2000);
  });
});
