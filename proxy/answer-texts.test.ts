import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { createAnswerTexts } from './answer-texts.ts';

const bytes = (text: string): Buffer => Buffer.from(text, 'utf8');

describe('createAnswerTexts', () => {
  it('says a read answered with the same bytes again was seen, and gives its text', () => {
    const answerText = createAnswerTexts();
    const list = '{"success":true,"data":[{"name":"Zoë"}]}';
    expect(answerText('GET', bytes(list), undefined)).toEqual({ text: list, seen: false });
    expect(answerText('GET', bytes(list), undefined)).toEqual({ text: list, seen: true });
  });

  it('tells apart bodies of one length, codings, and never remembers a write', () => {
    const answerText = createAnswerTexts();
    answerText('GET', bytes('{"a":1}'), undefined);
    expect(answerText('GET', bytes('{"a":2}'), undefined)).toEqual({ text: '{"a":2}', seen: false });
    const zipped = gzipSync(bytes('{"a":2}'));
    expect(answerText('GET', zipped, 'gzip')).toEqual({ text: '{"a":2}', seen: false });
    // Gzip's bytes are no UTF-8: they come with the text, for a recording to write as base64.
    expect(answerText('GET', zipped, 'identity')).toEqual({
      text: zipped.toString('utf8'),
      binary: zipped,
      seen: false,
    });
    answerText('POST', bytes('{"id":1}'), undefined);
    expect(answerText('POST', bytes('{"id":1}'), undefined).seen).toBe(false);
  });

  it('keeps its own copy of the bytes, not the socket buffer it was handed', () => {
    const answerText = createAnswerTexts();
    const buffer = bytes('{"a":1}');
    answerText('GET', buffer, undefined);
    buffer.write('{"a":9}');
    expect(answerText('GET', buffer, undefined)).toEqual({ text: '{"a":9}', seen: false });
  });
});
