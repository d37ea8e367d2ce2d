// The redactor's fast path lets a string through untouched when it holds no credential's word and
// no known secret. It must never let a credential through: whatever pieces a string is built from,
// no secret survives, and a string the fast path may skip comes back as it went in.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createRedactor } from './redaction.ts';

const SECRETS = { clientId: 'acme-client', clientSecret: 's3cret-value' };
const TOKEN = 'tok_0123456789abcdef';
const BASIC = Buffer.from(`${SECRETS.clientId}:${SECRETS.clientSecret}`).toString('base64');

const credentialPiece = fc.constantFrom(
  `Bearer ${TOKEN}`,
  `bearer ${TOKEN}`,
  `Basic ${BASIC}`,
  `"access_token":"${TOKEN}"`,
  `access_token=${TOKEN}`,
  `client_secret=${SECRETS.clientSecret}`,
  SECRETS.clientSecret,
  TOKEN,
);
const plain = fc
  .string({ maxLength: 12 })
  .filter((text) => !/basic|bearer|access_token|client_secret|s3cret|tok_/i.test(text));

describe('redaction fast path', () => {
  it('never lets a secret through, whatever surrounds it', () => {
    const redactor = createRedactor(SECRETS);
    redactor.add(TOKEN);
    fc.assert(
      fc.property(
        fc.array(fc.oneof(plain, credentialPiece, fc.constant(' ')), { maxLength: 8 }),
        (pieces) => {
          const out = redactor.redact(pieces.join(''));
          for (const secret of [SECRETS.clientSecret, TOKEN, BASIC]) expect(out).not.toContain(secret);
        },
      ),
      { seed: 18, numRuns: 1000 },
    );
  });

  it('gives back a string with no credential word and no secret exactly as it came', () => {
    const redactor = createRedactor(SECRETS);
    redactor.add(TOKEN);
    fc.assert(
      fc.property(fc.array(plain, { maxLength: 8 }), (pieces) => {
        const input = pieces.join(' ');
        expect(redactor.redact(input)).toBe(input);
      }),
      { seed: 18, numRuns: 1000 },
    );
  });
});
