// The spec decides routing numbers are ABA numbers; mock (to refuse) and suites (to generate) share this.
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

/** Completes eight digits with the check digit that makes a valid routing number. */
export function withAbaCheckDigit(firstEight: string): string {
  if (!/^[0-9]{8}$/.test(firstEight)) throw new RangeError(`need eight digits, got ${firstEight}`);
  const check = (10 - (weightedSum(firstEight) % 10)) % 10;
  return `${firstEight}${check}`;
}
