import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseGrantedScope } from './token-source.ts';

describe('parseGrantedScope reads the scope a token answer says it granted', () => {
  it.each([
    ['card,us_account', ['card', 'us_account']],
    ['card', ['card']],
    [' card , us_account ', ['card', 'us_account']],
    ['card,,us_account,', ['card', 'us_account']],
    ['admin', ['admin']],
  ])('%j names %j', (value, names) => {
    expect(parseGrantedScope(value)).toEqual(names);
  });

  // No names at all: pacu assumes the target granted what was asked.
  it.each([[undefined], [null], [''], [' , '], [42], [['card']]])('%j names nothing', (value) => {
    expect(parseGrantedScope(value)).toBeUndefined();
  });

  it('reads back every list of names it is given, whatever the spacing', () => {
    const name = fc.stringMatching(/^[a-z_]{1,12}$/);
    const space = fc.constantFrom('', ' ', '  ');
    fc.assert(
      fc.property(fc.array(fc.tuple(space, name, space), { minLength: 1 }), (parts) => {
        const value = parts.map(([before, text, after]) => `${before}${text}${after}`).join(',');
        expect(parseGrantedScope(value)).toEqual(parts.map(([, text]) => text));
      }),
      { seed: 424242 },
    );
  });
});
