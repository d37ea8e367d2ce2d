import { describe, expect, it } from 'vitest';
import { type ApiRequest, requestJson } from './api-request.ts';

const post = (body?: string): ApiRequest => ({
  method: 'POST',
  path: '/accounts',
  headers: {},
  ...(body !== undefined ? { body } : {}),
});

describe('requestJson', () => {
  it("parses each request's own body, and gives undefined for one that is not JSON", () => {
    const first = post('{"reference":"A"}');
    expect(requestJson(first)).toEqual({ reference: 'A' });
    expect(requestJson(first)).toBe(requestJson(first));
    expect(requestJson(post('{"reference":"B"}'))).toEqual({ reference: 'B' });
    expect(requestJson(post('{"reference":'))).toBeUndefined();
    expect(requestJson(post())).toBeUndefined();
    expect(requestJson(post('null'))).toBeNull();
  });
});
