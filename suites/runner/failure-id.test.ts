import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../spec/index.ts';
import { renderCurl } from '../target/curl.ts';
import { isJsonMediaType } from '../target/media-type.ts';
import { formatFailureId, parseFailureId } from './failure-id.ts';

describe('failure ids', () => {
  it('round-trips a property failure and a fixed-scenario failure', () => {
    const property = {
      ruleId: 'errors.unknown-id',
      operation: 'getVirtualCard',
      seed: 42,
      path: '3:0:1',
    } as const;
    expect(parseFailureId(formatFailureId(property))).toEqual(property);
    expect(parseFailureId('lifecycle.signed-webhooks/usdTransfer')).toEqual({
      ruleId: 'lifecycle.signed-webhooks',
      operation: 'usdTransfer',
    });
    // A fixed scenario seeded by the run keeps its seed.
    expect(parseFailureId('auth.token-expired/usdTransfer/7')).toEqual({
      ruleId: 'auth.token-expired',
      operation: 'usdTransfer',
      seed: 7,
    });
  });

  it('round-trips an answer judged in the case of another rule', () => {
    const judged = {
      ruleId: 'envelope.error-shape',
      receivedBy: 'errors.limits',
      operation: 'usdTransfer',
      seed: 42,
      path: '5',
    } as const;
    expect(formatFailureId(judged)).toBe('envelope.error-shape@errors.limits/usdTransfer/42/5');
    expect(parseFailureId(formatFailureId(judged))).toEqual(judged);
  });

  it.each(['nonsense', 'a/b/notanumber/1', 'a/b/', 'a/b/1/', 'a@/b/1/2', 'a@b@c/d', 'a/b/1/2/3'])(
    'refuses %s with a ConfigError',
    (id) => {
      expect(() => parseFailureId(id)).toThrow(ConfigError);
    },
  );
});

describe('media types', () => {
  it.each([
    ['application/json', true],
    ['application/json; charset=utf-8', true],
    ['Application/JSON;charset=UTF-8', true],
    ['application/problem+json', true],
    ['text/plain', false],
    ['application/jsonx', false],
    [undefined, false],
  ])('%s is JSON: %s', (type, json) => {
    expect(isJsonMediaType(type)).toBe(json);
  });
});

describe('renderCurl', () => {
  it('quotes for a POSIX shell', () => {
    const curl = renderCurl('http://h/v3/', {
      method: 'POST',
      path: '/accounts',
      headers: { 'content-type': 'application/json' },
      body: `{"name":"O'Brien"}`,
    });
    expect(curl).toBe(
      `curl -i -X POST 'http://h/v3/accounts' -H 'content-type: application/json' --data-raw '{"name":"O'\\''Brien"}'`,
    );
  });
});
