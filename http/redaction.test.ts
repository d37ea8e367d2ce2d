import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { basic } from '../suites/target/api-request.ts';
import { renderCurl } from '../suites/target/curl.ts';
import { createRedactor } from './redaction.ts';
import { isSecretName } from './redaction-policy.ts';

describe('createRedactor', () => {
  const redactor = createRedactor({ clientId: 'acme', clientSecret: 's3cret-value' });

  it('turns the Basic credential into placeholders, keeping a suffix pacu added on purpose', () => {
    const right = basic('acme', 's3cret-value').authorization;
    const wrong = basic('acme', 's3cret-valueXYZ').authorization;
    expect(redactor.redact(right)).toBe('Basic <$PACU_CLIENT_ID:$PACU_CLIENT_SECRET>');
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the placeholder is literal text.
    expect(redactor.redact(wrong)).toBe('Basic <$PACU_CLIENT_ID:${PACU_CLIENT_SECRET}XYZ>');
    expect(redactor.redact(basic('other', 'pw').authorization)).toBe('Basic <[redacted]>');
  });

  it('redacts bearer tokens but keeps the fake ones pacu sends as evidence', () => {
    expect(redactor.redact({ authorization: 'Bearer abc.def' })).toEqual({
      authorization: 'Bearer $PACU_TOKEN',
    });
    expect(redactor.redact('Bearer pacu-never-issued-xyz')).toBe('Bearer pacu-never-issued-xyz');
  });

  it('redacts the credential after Bearer, not the word after it in a message (issue 17, finding 6)', () => {
    const message = 'must use the Bearer scheme; Bearer tokens expire. See Bearer authentication.';
    expect(redactor.redact({ message })).toEqual({ message });
    expect(redactor.redact('Bearer eyJhbGciOiJIUzI1NiJ9.e30.sig')).toBe('Bearer $PACU_TOKEN');
    expect(redactor.redact('authorization: Bearer example')).toBe('authorization: Bearer $PACU_TOKEN');
    expect(redactor.redact("-H 'Authorization: Bearer sometoken'")).toBe(
      "-H 'Authorization: Bearer $PACU_TOKEN'",
    );
  });

  it('keeps prose around Bearer whole and never keeps a credential after it (property)', () => {
    const word = fc.stringMatching(/^[A-Za-z]{1,15}$/);
    const credential = fc.oneof(
      fc.stringMatching(/^[A-Za-z0-9]{4,40}$/).filter((token) => /\d/.test(token)),
      fc.stringMatching(/^[A-Za-z]{24,40}$/),
      fc
        .tuple(fc.stringMatching(/^[A-Za-z0-9]{2,20}$/), fc.constantFrom('.', '-', '_', '~', '+', '/'))
        .chain(([head, mark]) =>
          fc.stringMatching(/^[A-Za-z0-9]{2,20}={0,2}$/).map((tail) => head + mark + tail),
        ),
    );
    fc.assert(
      fc.property(
        fc.array(word, { maxLength: 6 }),
        word,
        fc.constantFrom('', '.', ',', ';', ':', ')'),
        (before, next, stop) => {
          const sentence = [...before, 'Bearer', `${next}${stop}`, 'please'].join(' ');
          expect(createRedactor().redact(sentence)).toBe(sentence);
        },
      ),
    );
    fc.assert(
      fc.property(fc.array(word, { maxLength: 6 }), credential, fc.boolean(), (before, token, header) => {
        const sentence = `${before.join(' ')} ${header ? 'authorization: ' : ''}Bearer ${token} done`;
        const redacted = createRedactor().redact(sentence);
        expect(redacted).not.toContain(token);
        expect(redacted).toContain('Bearer $PACU_TOKEN');
      }),
    );
  });

  it('redacts access_token values, the client secret in form bodies and tokens it observed', () => {
    const tokens = createRedactor({ clientId: 'acme', clientSecret: 's3cret-value' });
    tokens.observe({ json: { data: { access_token: 'tok_123456' } } });
    expect(tokens.redact('{"data":{"access_token":"tok_123456","scope":"card"}}')).toBe(
      '{"data":{"access_token":"[redacted]","scope":"card"}}',
    );
    expect(tokens.redact('client_secret=s3cret-value&grant_type=x')).toBe(
      'client_secret=$PACU_CLIENT_SECRET&grant_type=x',
    );
    expect(tokens.redact(['seen tok_123456 here'])).toEqual(['seen [redacted] here']);
  });

  it('never leaves a secret or its Basic form in any string (property)', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^[!-9;-~]{6,20}$/),
        fc.string(),
        fc.string(),
        (secret, before, after) => {
          const r = createRedactor({ clientId: 'id', clientSecret: secret });
          const encoded = basic('id', secret).authorization;
          const out = r.redact(`${before}${encoded} ${secret}${after}`);
          return !out.includes(secret) && !out.includes(encoded.slice(6));
        },
      ),
      { seed: 8 },
    );
  });
});

describe('renderCurl', () => {
  it('reads credentials from the environment', () => {
    expect(
      renderCurl('http://h/v3', {
        method: 'POST',
        path: '/auth/token',
        headers: { authorization: 'Basic <$PACU_CLIENT_ID:$PACU_CLIENT_SECRET>' },
        body: 'grant_type=client_credentials',
      }),
    ).toBe(
      `curl -i -X POST 'http://h/v3/auth/token' -u "$PACU_CLIENT_ID:$PACU_CLIENT_SECRET" --data-raw 'grant_type=client_credentials'`,
    );
    expect(
      renderCurl('http://h/v3', {
        method: 'GET',
        path: '/users',
        headers: { authorization: 'Bearer $PACU_TOKEN' },
      }),
    ).toBe(`curl -i -X GET 'http://h/v3/users' -H "authorization: Bearer $PACU_TOKEN"`);
  });
});

describe('the redaction policy', () => {
  const end = (headers: Record<string, string>, body: string, answer: string) =>
    ({
      seq: 1,
      startedAt: 0,
      request: {
        method: 'POST',
        path: '/v3/x',
        query: new URLSearchParams(),
        headers,
        body: Buffer.from(body),
      },
      operationId: undefined,
      clientId: undefined,
      status: 200,
      fault: undefined,
      answer: {
        headers: {},
        text: answer,
        bytes: 0,
        whole: true,
        repeated: false,
        durationMs: 1,
        error: undefined,
      },
    }) as const;

  it.each([
    ['clientSecret', true],
    ['client_secret', true],
    ['x-api-key', true],
    ['apiKey', true],
    ['x-auth-token', true],
    ['refresh_tokens', true],
    ['password_hash', true],
    ['token_type', false],
    ['key_id', false],
    ['expires_in_seconds', false],
    ['monkey', false],
  ])('reads %s as a credential name: %s', (name, secret) => {
    expect(isSecretName(name)).toBe(secret);
  });

  it('redacts headers by name: schemes kept, cookie names kept, credential headers whole', () => {
    const redactor = createRedactor({ headers: ['x-shop-sig'] });
    expect(
      redactor.redactHeaders([
        { name: 'Authorization', value: 'Digest username="a", response="b"' },
        { name: 'Cookie', value: 'sess=abc123456789; theme=dark' },
        { name: 'Set-Cookie', value: 'sess=abc123456789; Path=/; HttpOnly' },
        { name: 'X-Api-Key', value: 'k-1' },
        { name: 'X-Shop-Sig', value: 's-1' },
        { name: 'Accept', value: 'application/json' },
      ]),
    ).toEqual([
      { name: 'Authorization', value: 'Digest [redacted]' },
      { name: 'Cookie', value: 'sess=[redacted]; theme=[redacted]' },
      { name: 'Set-Cookie', value: 'sess=[redacted]; Path=/; HttpOnly' },
      { name: 'X-Api-Key', value: '[redacted]' },
      { name: 'X-Shop-Sig', value: '[redacted]' },
      { name: 'Accept', value: 'application/json' },
    ]);
  });

  it('redacts credential fields at any depth in JSON and form text, and leaves the rest byte for byte', () => {
    const redactor = createRedactor({ fields: ['iban'] });
    expect(
      redactor.redactText('{"a":{"b":[{"password":"p4ss","token_type":"Bearer","iban":"DE89"}]},"n":1}'),
    ).toBe('{"a":{"b":[{"password":"[redacted]","token_type":"Bearer","iban":"[redacted]"}]},"n":1}');
    expect(redactor.redactText('grant_type=x&client_secret=abc&api_key=k')).toBe(
      'grant_type=x&client_secret=[redacted]&api_key=[redacted]',
    );
    expect(redactor.redact({ nested: { secretKey: { any: 'thing' }, pin: 1 } })).toEqual({
      nested: { secretKey: '[redacted]', pin: 1 },
    });
  });

  it('learns the credentials of an exchange and redacts them wherever they show up afterwards', () => {
    const redactor = createRedactor();
    redactor.learn(
      end(
        {
          'x-api-key': 'key-7a3c9e1b5d8f',
          cookie: 'sess=sess-4b1d6e8a2c',
          authorization: 'bearer tok-unseen-123',
        },
        '{"api_token":"tok-2e4a6c8e0b1d"}',
        '{"data":{"access_token":"issued-0a1b2c3d"}}',
      ),
    );
    const echo =
      'caller key-7a3c9e1b5d8f, note tok-2e4a6c8e0b1d, session sess-4b1d6e8a2c, tok-unseen-123, issued-0a1b2c3d';
    expect(redactor.redactText(echo)).toBe(
      'caller [redacted], note [redacted], session [redacted], [redacted], [redacted]',
    );
  });
});
