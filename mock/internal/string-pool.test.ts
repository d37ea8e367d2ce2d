import { describe, expect, it } from 'vitest';
import { StringPool } from './string-pool.ts';

describe('StringPool', () => {
  it('hands out equal strings and stops growing at its capacity', () => {
    const pool = new StringPool(2);
    expect(pool.share('ACH')).toBe('ACH');
    pool.share('WIRE');
    pool.share('ACH');
    expect(pool.size).toBe(2);
    expect(pool.share('RTP')).toBe('RTP');
    expect(pool.size).toBe(2);
  });
});
