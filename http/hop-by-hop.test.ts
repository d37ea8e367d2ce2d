import { describe, expect, it } from 'vitest';
import { endToEnd, endToEndLines } from './hop-by-hop.ts';

describe('endToEnd', () => {
  it('drops hop-by-hop headers, those the Connection header names, and the asked ones; keeps the rest', () => {
    expect(
      endToEnd(
        {
          'content-type': 'application/json',
          connection: 'keep-alive, X-Trace ,x-hop',
          'keep-alive': 'timeout=5',
          'transfer-encoding': 'chunked',
          'x-trace': '1',
          'x-hop': '2',
          'x-kept': ['a', 'b'],
          host: 'proxy',
          absent: undefined,
        },
        ['host'],
      ),
    ).toEqual({ 'content-type': 'application/json', 'x-kept': ['a', 'b'] });
  });

  it('keeps everything end-to-end when Connection is only keep-alive or close', () => {
    expect(endToEnd({ connection: 'close', 'x-a': '1' })).toEqual({ 'x-a': '1' });
    expect(endToEnd({ connection: 'keep-alive', 'keep-alive': 'timeout=5', 'x-a': '1' })).toEqual({
      'x-a': '1',
    });
  });
});

describe('endToEndLines', () => {
  it('keeps each end-to-end line as sent, duplicates in place, and drops what any Connection line names', () => {
    expect(
      endToEndLines(
        [
          'Host',
          'proxy',
          'Authorization',
          'Bearer a',
          'X-Trace',
          '1',
          'authorization',
          'Bearer b',
          'Connection',
          'keep-alive, X-Trace',
          'connection',
          'Content-Type',
          'Content-Type',
          'text/plain',
          'TE',
          'trailers',
          'x-trace',
          '2',
        ],
        ['host'],
      ),
    ).toEqual(['Authorization', 'Bearer a', 'authorization', 'Bearer b']);
  });
});
