import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { essence, isJsonMediaType } from './media-type.ts';

describe('essence', () => {
  it('is the type/subtype before any parameter, trimmed and lower-cased', () => {
    const part = fc.constantFrom(
      'application/json',
      ' Application/JSON ',
      'text/plain',
      '',
      ';',
      ' ; x=1',
      'a;b',
    );
    fc.assert(
      fc.property(fc.array(fc.oneof(part, fc.string()), { maxLength: 4 }), (parts) => {
        const value = parts.join('');
        expect(essence(value)).toBe(value.split(';')[0]?.trim().toLowerCase());
      }),
    );
    expect(essence(undefined)).toBe('');
    expect(isJsonMediaType('Application/Problem+JSON; charset=utf-8')).toBe(true);
    expect(isJsonMediaType('text/json')).toBe(false);
  });
});
