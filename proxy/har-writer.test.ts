import { describe, expect, it } from 'vitest';
import { type HarExchange, harEntry, joinHarEntryText } from '../spec/index.ts';
import { createRedactor } from '../suites/index.ts';
import { createHarWriter } from './har-writer.ts';

const read = (body: string, method = 'GET'): HarExchange => ({
  startedAt: new Date(0),
  durationMs: 1.5,
  method,
  url: 'http://127.0.0.1:1/v3/users?page=2',
  requestHeaders: [{ name: 'authorization', value: 'Bearer tok-secret-1' }],
  status: 200,
  statusText: 'OK',
  responseHeaders: [{ name: 'content-type', value: 'application/json' }],
  responseBody: body,
  operation: 'listUsers',
});

describe('createHarWriter', () => {
  it('writes what harEntry(redactor.redact(…)) writes, for a repeated answer as for a new one', () => {
    const redactor = createRedactor({ clientSecret: 'shh-secret' });
    const write = createHarWriter(redactor);
    for (const exchange of [read('{"a":"shh-secret"}'), read('{"a":"shh-secret"}'), read('{}', 'POST')]) {
      const { startedAt, ...rest } = exchange;
      expect(joinHarEntryText(write(exchange))).toBe(
        JSON.stringify(harEntry({ ...redactor.redact(rest), startedAt })),
      );
    }
  });

  it('redacts a secret learned after an answer holding it was remembered', () => {
    const redactor = createRedactor();
    const write = createHarWriter(redactor);
    const answer = read('{"data":{"note":"token tok-learned-later"}}');
    expect(joinHarEntryText(write(answer))).toContain('tok-learned-later');
    redactor.add('tok-learned-later');
    expect(joinHarEntryText(write(answer))).not.toContain('tok-learned-later');
  });
});
