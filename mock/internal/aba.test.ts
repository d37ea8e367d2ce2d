import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isValidRoutingNumber, withCheckDigit } from './aba.ts';

const eightDigits = fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: 8, maxLength: 8 });

describe('ABA routing numbers', () => {
  it('accepts real routing numbers and refuses a changed check digit', () => {
    expect(isValidRoutingNumber('021000021')).toBe(true);
    expect(isValidRoutingNumber('026009593')).toBe(true);
    expect(isValidRoutingNumber('021000022')).toBe(false);
    expect(isValidRoutingNumber('02100002')).toBe(false);
  });

  it('completes any eight digits into a valid number', () => {
    fc.assert(
      fc.property(eightDigits, (prefix) => isValidRoutingNumber(withCheckDigit(prefix))),
      { seed: 42 },
    );
  });

  it('notices any single changed digit', () => {
    fc.assert(
      fc.property(eightDigits, fc.nat(8), fc.integer({ min: 1, max: 9 }), (prefix, at, delta) => {
        const valid = withCheckDigit(prefix);
        const changed = `${valid.slice(0, at)}${(Number(valid[at]) + delta) % 10}${valid.slice(at + 1)}`;
        return !isValidRoutingNumber(changed);
      }),
      { seed: 42 },
    );
  });
});
