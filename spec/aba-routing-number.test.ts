import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isAbaRoutingNumber, withAbaCheckDigit } from './index.ts';

const eightDigits = fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: 8, maxLength: 8 });

describe('ABA routing numbers', () => {
  it('accepts real routing numbers and refuses a changed check digit', () => {
    expect(isAbaRoutingNumber('021000021')).toBe(true);
    expect(isAbaRoutingNumber('026009593')).toBe(true);
    expect(isAbaRoutingNumber('021000022')).toBe(false);
    expect(isAbaRoutingNumber('02100002')).toBe(false);
  });

  it('completes any eight digits into a valid number', () => {
    fc.assert(
      fc.property(eightDigits, (prefix) => isAbaRoutingNumber(withAbaCheckDigit(prefix))),
      { seed: 42 },
    );
  });

  it('notices any single changed digit', () => {
    fc.assert(
      fc.property(eightDigits, fc.nat(8), fc.integer({ min: 1, max: 9 }), (prefix, at, delta) => {
        const valid = withAbaCheckDigit(prefix);
        const changed = `${valid.slice(0, at)}${(Number(valid[at]) + delta) % 10}${valid.slice(at + 1)}`;
        return !isAbaRoutingNumber(changed);
      }),
      { seed: 42 },
    );
  });
});
