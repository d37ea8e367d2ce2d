// The redactor's fast path (strings without a credential's word or a known secret pass through)
// must not change a single output: the redactor before it, kept here as the reference, agrees on
// strings built from credential-shaped pieces.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createRedactor } from './redaction.ts';

const SECRETS = { clientId: 'acme-client', clientSecret: 's3cret-value' };
const TOKEN = 'tok_0123456789abcdef';

/** The text pass of suites/redaction.ts before the fast path, as it was (reference only). */
function reference(input: string): string {
  const known = new Map<string, string>([
    [SECRETS.clientSecret, '$PACU_CLIENT_SECRET'],
    [
      Buffer.from(`${SECRETS.clientId}:${SECRETS.clientSecret}`).toString('base64'),
      '<$PACU_CLIENT_ID:$PACU_CLIENT_SECRET>',
    ],
    [TOKEN, '[redacted]'],
  ]);
  const basicMarker = (encoded: string): string | undefined => {
    const decoded = Buffer.from(encoded, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    // biome-ignore lint/suspicious/noControlCharactersInRegex: as in the redactor.
    if (colon < 0 || /[\u0000-\u001f\ufffd]/.test(decoded)) return undefined;
    const id = decoded.slice(0, colon);
    const password = decoded.slice(colon + 1);
    if (id !== SECRETS.clientId) return 'Basic <[redacted]>';
    const suffix = password.slice(SECRETS.clientSecret.length);
    const rest = !password.startsWith(SECRETS.clientSecret)
      ? '[redacted]'
      : suffix === ''
        ? '$PACU_CLIENT_SECRET'
        : `\${PACU_CLIENT_SECRET}${suffix}`;
    return `Basic <$PACU_CLIENT_ID:${rest}>`;
  };
  let out = input
    .replace(
      /Basic\s+([A-Za-z0-9+/]{6,}={0,2})(?![A-Za-z0-9+/=])/g,
      (all, encoded: string) => basicMarker(encoded) ?? all,
    )
    .replace(/\bBearer\s+([^\s"',;]+)/g, (all, token: string) =>
      token.startsWith('pacu-never-issued-') || token.startsWith('$') ? all : 'Bearer $PACU_TOKEN',
    )
    .replace(/("access_token"\s*:\s*)"(?:[^"\\]|\\.)*"/g, (_all, key: string) => `${key}"[redacted]"`)
    .replace(/\b(client_secret|access_token)=([^&\s"']*)/g, (_all, key: string) =>
      key === 'client_secret' ? `${key}=$PACU_CLIENT_SECRET` : `${key}=[redacted]`,
    );
  for (const [secret, standIn] of [...known].sort(([a], [b]) => b.length - a.length))
    out = out.split(secret).join(standIn);
  return out;
}

const piece = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.constantFrom(
    'Basic ',
    'Bearer ',
    `Bearer ${TOKEN}`,
    `Basic ${Buffer.from(`${SECRETS.clientId}:${SECRETS.clientSecret}`).toString('base64')}`,
    `Basic ${Buffer.from('other:pw-123456').toString('base64')}`,
    `"access_token":"${TOKEN}"`,
    'client_secret=abc&x=1',
    `access_token=${TOKEN}`,
    SECRETS.clientSecret,
    TOKEN,
    'basic bearer ACCESS_TOKEN',
    ' ',
    '"',
  ),
);

describe('redaction fast path', () => {
  it('redacts every string exactly as the redactor did before it', () => {
    const redactor = createRedactor(SECRETS);
    redactor.add(TOKEN);
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 8 }), (pieces) => {
        const input = pieces.join('');
        expect(redactor.redact(input)).toBe(reference(input));
      }),
      { seed: 18, numRuns: 2000 },
    );
  });
});
