import { describe, expect, it } from 'vitest';
import { answerOf, forgetParsed } from './lazy-answer.ts';

const answer = (text: string) => answerOf({ status: 200, headers: {}, text, durationMs: 1 });

describe('answerOf', () => {
  it('parses json on first read, once, and shows it to walks and JSON like a plain field', () => {
    const one = answer('{"success":true}');
    expect(one.json).toEqual({ success: true });
    expect(one.json).toBe(one.json);
    expect(Object.keys(one)).toEqual(['status', 'headers', 'text', 'durationMs', 'json']);
    expect(JSON.parse(JSON.stringify(one))).toEqual({
      status: 200,
      headers: {},
      text: '{"success":true}',
      durationMs: 1,
      json: { success: true },
    });
    expect(answer('not json').json).toBeUndefined();
  });

  it('gives every answer the same getter (a closure each gave each answer its own hidden class)', () => {
    const getter = (value: object) => Object.getOwnPropertyDescriptor(value, 'json')?.get;
    expect(getter(answer('1'))).toBe(getter(answer('2')));
  });

  it('forgets its parse when told, and parses the text again when read again', () => {
    const one = answer('{"success":true}');
    const first = one.json;
    forgetParsed(one);
    expect(one.json).toEqual(first);
    expect(one.json).not.toBe(first);
    const plain = { status: 200, headers: {}, text: '{"a":1}', json: { a: 2 }, durationMs: 1 };
    forgetParsed(plain);
    expect(plain.json).toEqual({ a: 2 });
  });
});
