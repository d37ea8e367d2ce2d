import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bearerToken, hasScheme, parseAuthorization } from './credentials.ts';

const basicOf = (pair: string): string => Buffer.from(pair).toString('base64');

describe('parseAuthorization', () => {
  it.each(['Bearer', 'bearer', 'BEARER', 'BeArEr'])('reads the scheme %s in any case', (scheme) => {
    expect(parseAuthorization(`${scheme} tok-1`)).toEqual({ scheme: 'bearer', token: 'tok-1' });
    expect(parseAuthorization(`${scheme.replace(/bearer/i, 'Basic')} ${basicOf('id:pw')}`)).toMatchObject({
      scheme: 'basic',
      user: 'id',
      password: 'pw',
    });
  });

  it('takes several spaces or a tab after the scheme, and nothing without a value', () => {
    expect(bearerToken('Bearer \t tok')).toBe('tok');
    expect(parseAuthorization('Bearer')).toEqual({ scheme: 'other', name: 'bearer' });
    expect(hasScheme('Bearer ', 'bearer')).toBe(false);
    expect(parseAuthorization(undefined)).toBeUndefined();
  });

  it('names no user for Basic text that is not base64 of user:password', () => {
    expect(parseAuthorization('Basic !!!')).toMatchObject({ scheme: 'basic', user: undefined });
    expect(parseAuthorization(`Basic ${basicOf('no-colon')}`)).toMatchObject({ user: undefined });
    expect(parseAuthorization(`Basic ${basicOf('id:pw:with:colons')}`)).toMatchObject({
      user: 'id',
      password: 'pw:with:colons',
    });
  });

  it('reads any other scheme by its name', () => {
    expect(parseAuthorization('Digest username="a"')).toEqual({ scheme: 'other', name: 'digest' });
  });

  it('gives back the token and the user it was given (property)', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^[!-~]{1,40}$/),
        fc.stringMatching(/^[^:]{0,20}$/),
        fc.string(),
        (token, user, password) => {
          expect(bearerToken(`bearer ${token}`)).toBe(token);
          const read = parseAuthorization(`BASIC ${basicOf(`${user}:${password}`)}`);
          expect(read).toMatchObject({ scheme: 'basic', user, password });
        },
      ),
      { seed: 26 },
    );
  });
});
