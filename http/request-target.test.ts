import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readTarget, resolvePath } from './request-target.ts';

describe('resolvePath', () => {
  it.each([
    ['/v3/users', '/v3/users'],
    ['/v3/../admin', '/admin'],
    ['/v3/%2e%2e/%2E%2e/etc/passwd', '/etc/passwd'],
    ['/v3/.%2e/x', '/x'],
    ['/v3/./users', '/v3/users'],
    ['/v3//169.254.169.254/latest', '/v3/169.254.169.254/latest'],
    ['//evil.example/v3', '/evil.example/v3'],
    ['/v3\\..\\admin', '/admin'],
    ['/v3/users/', '/v3/users/'],
    ['/v3/users/..', '/v3/'],
    ['/../../..', '/'],
  ])('%s names %s', (path, resolved) => {
    expect(resolvePath(path)).toBe(resolved);
  });

  it('leaves no dot segment, backslash or empty segment behind, and resolves to itself (property)', () => {
    const segment = fc.constantFrom('..', '.', '%2e%2e', '%2E.', '', 'v3', 'users', 'a\\..', '%2f');
    fc.assert(
      fc.property(fc.array(segment, { maxLength: 8 }), (segments) => {
        const resolved = resolvePath(`/${segments.join('/')}`);
        expect(resolved.startsWith('/')).toBe(true);
        expect(resolved.split('/').slice(1, -1)).not.toContain('');
        expect(resolved).not.toMatch(/\/(?:\.|%2e){1,2}(?:\/|$)|\\/i);
        expect(resolvePath(resolved)).toBe(resolved);
      }),
      { seed: 26 },
    );
  });
});

describe('readTarget', () => {
  it('keeps the query as sent', () => {
    expect(readTarget('/v3/a/../users?page=1&x=%2e', 'h')).toEqual({
      path: '/v3/users',
      search: '?page=1&x=%2e',
    });
  });

  it('takes absolute-form for its own authority, without the user info, and refuses any other', () => {
    expect(readTarget('http://user:pw@127.0.0.1:4010/v3/users?a=1', '127.0.0.1:4010')).toEqual({
      path: '/v3/users',
      search: '?a=1',
    });
    expect(readTarget('http://169.254.169.254/latest/meta-data/', '127.0.0.1:4010')).toHaveProperty(
      'refused',
    );
  });

  it('refuses asterisk-form and authority-form', () => {
    expect(readTarget('*', 'h')).toHaveProperty('refused');
    expect(readTarget('example.com:443', 'h')).toHaveProperty('refused');
  });
});
