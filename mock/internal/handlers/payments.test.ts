import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { binaryUnit } from '../../../test/helpers/binary-unit.ts';
import { fingerprint } from './payments.ts';

/** The fingerprint as state files written by earlier versions hold it. */
const stored = (body: Record<string, unknown>): string =>
  createHash('sha256')
    .update(
      JSON.stringify(
        Object.keys(body)
          .sort()
          .map((key) => [key, body[key]]),
      ),
    )
    .digest('base64url')
    .slice(0, 22);

describe('fingerprint', () => {
  it('hashes the same text as the sorted [key, value] pairs, for any JSON body', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), (body) => {
        expect(fingerprint(body)).toBe(stored(body));
      }),
      { numRuns: 500 },
    );
  });

  it('hashes the same text for strings that need escaping (controls, quotes, lone surrogates)', () => {
    fc.assert(
      fc.property(
        fc.dictionary(
          fc.string({ unit: binaryUnit }),
          fc.oneof(fc.string({ unit: binaryUnit }), fc.double()),
        ),
        (body) => {
          expect(fingerprint(body)).toBe(stored(body));
        },
      ),
      { numRuns: 500, seed: 7 },
    );
    expect(fingerprint({})).toBe(stored({}));
    expect(fingerprint({ a: undefined, b: -0, c: 1e21 })).toBe(stored({ a: undefined, b: -0, c: 1e21 }));
  });

  it('ignores field order', () => {
    expect(fingerprint({ b: 1, a: 'x', c: [1, { z: 1 }] })).toBe(
      fingerprint({ c: [1, { z: 1 }], a: 'x', b: 1 }),
    );
  });
});
