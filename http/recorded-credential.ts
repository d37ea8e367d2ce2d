import { SECRET_STAND_INS } from './redaction.ts';

/**
 * What a recorded Authorization header stood for, read from the stand-ins the redactor wrote: the
 * recording never holds a credential, so whoever sends the request again (`pacu replay`, a mock
 * learning from the recording) puts its own in, of the same kind.
 */
export type RecordedCredential =
  | { readonly kind: 'basic'; readonly secret: 'right' | 'wrong' | { readonly suffix: string } }
  /** `issued`: a token the target issued (redacted); otherwise a value sent as recorded. */
  | { readonly kind: 'bearer'; readonly token: 'issued' }
  | { readonly kind: 'as-recorded'; readonly value: string };

const { clientId: ID, clientSecret: SECRET, redacted: REDACTED, token: TOKEN } = SECRET_STAND_INS;
/** How the redactor writes the client secret followed by more (`redaction.ts`). */
const SECRET_WITH_SUFFIX = ['${', SECRET.slice(1), '}'].join('');

/**
 * The credential a recorded Authorization value stands for. A Basic credential whose parts the
 * redactor could not name (it was not told the client) counts as the right one, as does one in clear:
 * only the client's id followed by another secret is known to be wrong.
 *
 * @example
 * readRecordedCredential('Basic <$PACU_CLIENT_ID:${PACU_CLIENT_SECRET}-wrong>'); // { kind: 'basic', secret: { suffix: '-wrong' } }
 */
export function readRecordedCredential(value: string): RecordedCredential {
  const basic = /^basic\s+<(.*)>$/i.exec(value.trim());
  if (basic) {
    const inside = basic[1] ?? '';
    if (!inside.startsWith(`${ID}:`)) return { kind: 'basic', secret: 'right' };
    const password = inside.slice(ID.length + 1);
    if (password === SECRET) return { kind: 'basic', secret: 'right' };
    if (password.startsWith(SECRET_WITH_SUFFIX))
      return { kind: 'basic', secret: { suffix: password.slice(SECRET_WITH_SUFFIX.length) } };
    return { kind: 'basic', secret: password === REDACTED ? 'wrong' : 'right' };
  }
  if (/^basic\b/i.test(value)) return { kind: 'basic', secret: 'right' };
  if (value.includes(TOKEN) || value.includes(REDACTED)) return { kind: 'bearer', token: 'issued' };
  return { kind: 'as-recorded', value };
}

/** A secret that is not the client's, for a recorded wrong one. */
export const WRONG_SECRET_SUFFIX = '-pacu-not-the-secret';

/** The Authorization value to send for a recorded credential, with the sender's own client and token. */
export function credentialValue(
  credential: RecordedCredential,
  own: { readonly clientId: string; readonly clientSecret: string; readonly token: string },
): string {
  if (credential.kind === 'as-recorded') return credential.value;
  if (credential.kind === 'bearer') return `Bearer ${own.token}`;
  const secret =
    credential.secret === 'right'
      ? own.clientSecret
      : credential.secret === 'wrong'
        ? `${own.clientSecret}${WRONG_SECRET_SUFFIX}`
        : `${own.clientSecret}${credential.secret.suffix}`;
  return `Basic ${Buffer.from(`${own.clientId}:${secret}`).toString('base64')}`;
}
