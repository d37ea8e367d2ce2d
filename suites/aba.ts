import fc from 'fast-check';

// ABA routing numbers carry a checksum: 3·d1 + 7·d2 + d3 + 3·d4 + … ≡ 0 (mod 10).
const WEIGHTS = [3, 7, 1, 3, 7, 1, 3, 7, 1] as const;

function weightedSum(digits: string): number {
  let sum = 0;
  for (let index = 0; index < digits.length; index++) sum += Number(digits[index]) * (WEIGHTS[index] ?? 0);
  return sum;
}

/** True when `value` is nine digits whose ABA checksum holds. */
export function isAbaRoutingNumber(value: string): boolean {
  return /^[0-9]{9}$/.test(value) && weightedSum(value) % 10 === 0;
}

/**
 * Real-looking routing numbers (Federal Reserve district prefix 01-12, valid check digit): a sandbox
 * may well check the checksum, which no schema can say.
 */
export function routingNumberArbitrary(): fc.Arbitrary<string> {
  return fc
    .tuple(fc.integer({ min: 1, max: 12 }), fc.integer({ min: 0, max: 999_999 }))
    .map(([district, rest]) => {
      const firstEight = `${String(district).padStart(2, '0')}${String(rest).padStart(6, '0')}`;
      return `${firstEight}${(10 - (weightedSum(firstEight) % 10)) % 10}`;
    });
}
