import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type HarExchange, harEntry, joinHarEntryText } from './har.ts';
import { createHarWriter } from './har-entry-writer.ts';
import { createRedactor, type Redactor } from './redaction.ts';

/** What the writer must write: the entry of the exchange redacted, headers by their names. */
const expected = (redactor: Redactor, { startedAt, ...rest }: HarExchange): string =>
  JSON.stringify(
    harEntry({
      ...redactor.redact(rest),
      requestHeaders: redactor.redactHeaders(rest.requestHeaders),
      responseHeaders: redactor.redactHeaders(rest.responseHeaders),
      startedAt,
    }),
  );

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
      expect(joinHarEntryText(write(exchange))).toBe(expected(redactor, exchange));
    }
  });

  it('writes the same as harEntry(redactor.redact(…)) over streams of repeating headers', () => {
    // Values from a small pool, so most pairs repeat; some hold a secret or a bearer token.
    const value = fc.constantFrom('shh-secret', 'Bearer tok-abcdefgh-123', 'application/json', 'x', 'ÿ"\\');
    const list = fc.array(
      fc.record({ name: fc.constantFrom('authorization', 'Accept', 'x-n', 'cookie', 'x-api-key'), value }),
      {
        maxLength: 4,
      },
    );
    fc.assert(
      fc.property(fc.array(fc.tuple(list, list), { minLength: 1, maxLength: 6 }), (stream) => {
        const redactor = createRedactor({ clientSecret: 'shh-secret' });
        const write = createHarWriter(redactor);
        for (const [requestHeaders, responseHeaders] of stream) {
          const exchange = { ...read('{}'), requestHeaders, responseHeaders };
          expect(joinHarEntryText(write(exchange))).toBe(expected(redactor, exchange));
        }
      }),
    );
  });

  it('writes every header right after it forgot the ones it remembered', () => {
    const write = createHarWriter(createRedactor());
    for (let index = 0; index < 5000; index += 1) {
      const exchange = { ...read('{}'), requestHeaders: [{ name: 'x-n', value: `v${index}` }] };
      expect(JSON.parse(joinHarEntryText(write(exchange))).request.headers).toEqual(exchange.requestHeaders);
    }
  });

  it('redacts a secret learned after an answer holding it was remembered', () => {
    const redactor = createRedactor();
    const write = createHarWriter(redactor);
    const answer = {
      ...read('{"data":{"note":"token tok-learned-later"}}'),
      responseHeaders: [{ name: 'x-note', value: 'tok-learned-later' }],
    };
    expect(joinHarEntryText(write(answer))).toContain('tok-learned-later');
    redactor.add('tok-learned-later');
    expect(joinHarEntryText(write(answer))).not.toContain('tok-learned-later');
  });
});
