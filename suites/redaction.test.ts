import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { basic } from './api-request.ts';
import { renderCurl } from './curl.ts';
import { createRedactor } from './redaction.ts';

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
