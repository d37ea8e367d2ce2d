import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type HarExchange,
  harBodyText,
  harEntry,
  harEntryText,
  isoTime,
  joinHarEntryText,
  keptHarBodyText,
} from './har.ts';

const text = fc.string({ unit: 'binary', maxLength: 40 });
const pairs = fc.array(fc.record({ name: fc.oneof(fc.constant('content-type'), text), value: text }), {
  maxLength: 4,
});
const exchange: fc.Arbitrary<HarExchange> = fc
  .record({
    startedAt: fc.date({ min: new Date(0), max: new Date(4e12), noInvalidDate: true }),
    durationMs: fc.oneof(
      fc.double({ min: 0, max: 1e6, noNaN: true }),
      fc.nat(),
      // What a recording writes: hundredths of a millisecond.
      fc.integer({ min: 0, max: 1e14 }).map((hundredths) => hundredths / 100),
    ),
    method: fc.constantFrom('GET', 'POST', 'DELETE'),
    url: fc.oneof(
      fc.webUrl({ withQueryParameters: true, withFragments: true }),
      fc.constant('http://127.0.0.1:8080/v3/users?page=2&page=3&q=%C3%A9+x'),
    ),
    requestHeaders: pairs,
    requestBody: fc.option(text, { nil: undefined }),
    status: fc.integer({ min: 100, max: 599 }),
    statusText: text,
    responseHeaders: pairs,
    responseBody: fc.string({ unit: 'binary', maxLength: 200 }),
    operation: fc.option(fc.constantFrom('listUsers', 'usdTransfer', ''), { nil: undefined }),
  })
  .map(({ requestBody, operation, ...rest }) => ({
    ...rest,
    ...(requestBody !== undefined ? { requestBody } : {}),
    ...(operation !== undefined ? { operation } : {}),
  }));

describe('harEntryText', () => {
  it('writes exactly JSON.stringify(harEntry(exchange)), with or without the body given', () => {
    fc.assert(
      fc.property(exchange, (value) => {
        const expected = JSON.stringify(harEntry(value));
        expect(joinHarEntryText(harEntryText(value))).toBe(expected);
        expect(joinHarEntryText(harEntryText(value, harBodyText(value.responseBody)))).toBe(expected);
        expect(joinHarEntryText(harEntryText(value, keptHarBodyText(value.responseBody)))).toBe(expected);
      }),
      { numRuns: 500 },
    );
  });
});

describe('isoTime', () => {
  it('writes what toISOString() writes, for any time (and throws where it throws)', () => {
    const written = (at: number): string => {
      try {
        return new Date(at).toISOString();
      } catch {
        return 'throws';
      }
    };
    const time = fc.oneof(
      fc.integer({ min: -8.64e15 - 5, max: 8.64e15 + 5 }),
      fc.integer({ min: 1.7e12, max: 1.7e12 + 3000 }),
      fc.double(),
    );
    fc.assert(
      fc.property(fc.array(time, { maxLength: 40 }), (times) => {
        for (const at of times) {
          let ours: string;
          try {
            ours = isoTime(at);
          } catch {
            ours = 'throws';
          }
          expect(ours).toBe(written(at));
        }
      }),
      { numRuns: 300 },
    );
  });
});
