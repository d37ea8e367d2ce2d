import { describe, expect, it } from 'vitest';
import { learnedLines } from './report.ts';

describe('learnedLines', () => {
  it('says nothing when the run learned nothing', () => {
    expect(learnedLines(undefined)).toEqual([]);
    expect(learnedLines({ bounds: [] })).toEqual([]);
  });

  it('names each bound, then the pacing in one line', () => {
    const bound = {
      operation: 'usdTransfer',
      field: 'amount',
      when: {},
      kind: 'above',
      limit: 25_000,
    } as const;
    expect(
      learnedLines({
        bounds: [{ ...bound, text: 'usdTransfer amount: refused above 25000.00' }],
        rate: { perSecond: 19, measured: true, episodes: 2, retryAfter: ['date', 'seconds'], unavailable: 3 },
      }),
    ).toEqual([
      'usdTransfer amount: refused above 25000.00',
      'rate: 19 requests a second kept, 95 % of what the provider took between two 429s; Retry-After as an HTTP date and seconds; 3 answers 503 waited out',
    ]);
    expect(
      learnedLines({
        bounds: [],
        rate: { perSecond: 24, measured: false, episodes: 1, retryAfter: [], unavailable: 0 },
      }),
    ).toEqual([
      'rate: no second 429 came to measure it; pacu kept to at most 24 requests a second after the first',
    ]);
  });
});
