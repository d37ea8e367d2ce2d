import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { luhn, maskCardNumber, maskCardNumbersIn } from './card-numbers.ts';
import { createRedactor } from './redaction.ts';

const redactor = createRedactor({});

describe('redaction by parsing (issue 38, finding 1)', () => {
  it('judges query parameters by their decoded names, the first one too', () => {
    expect(redactor.redactText('/v3/users?Password=abc12345&page=2')).toBe(
      '/v3/users?Password=[redacted]&page=2',
    );
    expect(redactor.redactText('/v3/users?pass%77ord=abc12345')).toBe('/v3/users?pass%77ord=[redacted]');
    expect(redactor.redactText("curl 'http://h/v3/x?a=1&client_secret=zz9zz9zz'")).toBe(
      "curl 'http://h/v3/x?a=1&client_secret=[redacted]'",
    );
    expect(redactor.redactText('client%5Fsecret=abc12345&grant_type=x')).toBe(
      'client%5Fsecret=[redacted]&grant_type=x',
    );
  });

  it('judges JSON keys with their escapes undone, and reads JSON inside strings and URLs inside JSON', () => {
    expect(redactor.redactText('{"\\u0070assword" : "x1", "a":1}')).toBe(
      '{"\\u0070assword" : "[redacted]", "a":1}',
    );
    expect(redactor.redactText('{"data":{"api_key":12345678,"list":[{"token":{"a":"b"}}]}}')).toBe(
      '{"data":{"api_key":"[redacted]","list":[{"token":"[redacted]"}]}}',
    );
    const inner = JSON.stringify({
      payload: JSON.stringify({ secret: 'abcdefgh' }),
      next: 'http://h/?token=abcdefgh',
    });
    const out = redactor.redactText(inner);
    expect(out).not.toContain('abcdefgh');
    expect(JSON.parse(JSON.parse(out).payload)).toEqual({ secret: '[redacted]' });
    expect(JSON.parse(out).next).toBe('http://h/?token=[redacted]');
  });

  it('judges multipart parts by their Content-Disposition name, from the boundary given or the body', () => {
    const body = (name: string): string =>
      `--b1\r\nContent-Disposition: form-data; name="user_id"\r\n\r\nusr_1\r\n--b1\r\nContent-Disposition: form-data; ${name}\r\n\r\nabc12345\r\n--b1--\r\n`;
    for (const name of [
      'name="client_secret"',
      'name="client\\_secret"',
      'name=password',
      "name*=UTF-8''pass%77ord",
    ])
      expect(redactor.redactText(body(name), 'multipart/form-data; boundary=b1')).toBe(
        body(name).replace('abc12345', '[redacted]'),
      );
    expect(redactor.redactText(body('name="client_secret"'))).not.toContain('abc12345');
  });

  it('leaves a JSON text with no judged name exactly as it came (property)', () => {
    const safeKey = fc
      .stringMatching(/^[a-z]{1,8}$/)
      .filter((key) => !/key|pan|num|code|cv|csc|pwd/.test(key));
    const json = fc
      .jsonValue()
      .chain((value) =>
        fc
          .dictionary(safeKey, fc.constant(value), { maxKeys: 4 })
          .map((object) => JSON.stringify(object, null, 1)),
      );
    fc.assert(
      fc.property(json, (text) => {
        if (/\d{13}/.test(text)) return;
        expect(redactor.redactText(text)).toBe(text);
      }),
      { seed: 38, numRuns: 300 },
    );
  });

  it('never keeps a value under a judged name, and keeps the JSON valid (property)', () => {
    const name = fc.constantFrom(
      'password',
      'clientSecret',
      'x-api-key',
      'refresh_tokens',
      'cvv',
      'card_number',
    );
    const value = fc.oneof(fc.string({ minLength: 1 }), fc.integer(), fc.array(fc.string()));
    fc.assert(
      fc.property(name, value, fc.jsonValue(), (key, secret, rest) => {
        const text = JSON.stringify({ rest, deep: [{ [key]: secret }] });
        const out = JSON.parse(redactor.redactText(text));
        const kept = out.deep[0][key];
        if (key === 'card_number' && typeof secret !== 'object')
          expect(kept).toBe(maskCardNumber(String(secret)));
        else expect(kept).toBe('[redacted]');
      }),
      { seed: 38, numRuns: 300 },
    );
  });

  it('writes bytes that are not UTF-8 as base64, each byte kept outside a redacted value', () => {
    const body = Buffer.concat([
      Buffer.from('{"password":"abc12345","x":"'),
      Buffer.from([0xff, 0xe9]),
      Buffer.from('"}'),
    ]);
    const redacted = redactor.redactBody(body);
    expect(redacted.encoding).toBe('base64');
    expect(Buffer.from(redacted.text, 'base64')).toEqual(
      Buffer.concat([
        Buffer.from('{"password":"[redacted]","x":"'),
        Buffer.from([0xff, 0xe9]),
        Buffer.from('"}'),
      ]),
    );
    expect(redactor.redactBody(Buffer.from('{"a":"é"}'))).toEqual({ text: '{"a":"é"}' });
  });
});

describe('card data (issue 38, finding 2)', () => {
  it('removes a CVV, masks a card number to six and four digits with its length, by name or by value', () => {
    expect(
      redactor.redactText('{"cvv":"123","card_number":"4111111111111111","cardNumber":4111111111111111}'),
    ).toBe('{"cvv":"[redacted]","card_number":"411111******1111","cardNumber":"411111******1111"}');
    expect(maskCardNumber('4111 1111 1111 1111')).toBe('4111 11** **** 1111');
    expect(maskCardNumber('411111******1111')).toBe('411111******1111');
    expect(maskCardNumbersIn('card 4111-1111-1111-1111 declined; order 4111111111111112')).toBe(
      'card 4111-11**-****-1111 declined; order 4111111111111112',
    );
    expect(maskCardNumbersIn('{"n":4111111111111111}')).toBe('{"n":"411111******1111"}');
    // A timestamp in milliseconds is no card number.
    expect(maskCardNumbersIn('1767225600000')).toBe('1767225600000');
  });

  it('keeps card data as it came with keepCardData', () => {
    const keeping = createRedactor({ keepCardData: true });
    const text = '{"cvv":"123","card_number":"4111111111111111","password":"abc12345"}';
    expect(keeping.redactText(text)).toBe(
      '{"cvv":"123","card_number":"4111111111111111","password":"[redacted]"}',
    );
  });

  it('reads the Luhn check as card networks do', () => {
    expect(luhn('4111111111111111')).toBe(true);
    expect(luhn('4111111111111112')).toBe(false);
    expect(luhn('378282246310005')).toBe(true);
  });
});

describe('recorded bodies in base64', () => {
  it('redacts the bytes a base64 body stands for, not its base64 text', () => {
    const bytes = Buffer.concat([
      Buffer.from('{"password":"abc12345","n":"'),
      Buffer.from([0xff]),
      Buffer.from('"}'),
    ]);
    const walked = redactor.redact({
      postData: { mimeType: 'application/json', text: bytes.toString('base64'), encoding: 'base64' },
    });
    expect(Buffer.from(walked.postData.text, 'base64').toString('latin1')).toBe(
      '{"password":"[redacted]","n":"\u00ff"}',
    );
    expect(redactor.redactText('password=&grant_type=x')).toBe('password=&grant_type=x');
  });
});
