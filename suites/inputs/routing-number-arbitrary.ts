import fc from 'fast-check';
import { withAbaCheckDigit } from '../../spec/index.ts';

/**
 * Real-looking routing numbers (Federal Reserve district prefix 01-12, valid check digit): a sandbox
 * may well check the checksum, which no schema can say.
 */
export function routingNumberArbitrary(): fc.Arbitrary<string> {
  return fc
    .tuple(fc.integer({ min: 1, max: 12 }), fc.integer({ min: 0, max: 999_999 }))
    .map(([district, rest]) => {
      const firstEight = `${String(district).padStart(2, '0')}${String(rest).padStart(6, '0')}`;
      return withAbaCheckDigit(firstEight);
    });
}
