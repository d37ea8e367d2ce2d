import { describe, expect, it } from 'vitest';
import { targetRedactor } from './target-redactor.ts';

describe('targetRedactor', () => {
  it("redacts the target's client secret, the values of its headers and its own credential names", () => {
    const redactor = targetRedactor(
      {
        baseUrl: 'http://h/v3',
        clientId: 'acme',
        clientSecret: 's3cret-value',
        scopes: [],
        ids: {},
        headers: { 'x-sandbox': 'sandbox-key-123' },
        redactHeaders: ['x-shop-sig'],
        redactFields: ['iban'],
      },
      ['whsec_abcdef'],
    );
    expect(
      redactor.redact({
        headers: { 'x-shop-sig': 'sig-1', 'x-sandbox': 'sandbox-key-123' },
        body: '{"iban":"DE89","note":"s3cret-value whsec_abcdef"}',
      }),
    ).toEqual({
      headers: { 'x-shop-sig': '[redacted]', 'x-sandbox': '[redacted]' },
      body: '{"iban":"[redacted]","note":"$PACU_CLIENT_SECRET [redacted]"}',
    });
  });
});
