import { decodeBasic, parseAuthorization } from './credentials.ts';

// Credentials written by their scheme rather than under a name: `Basic <base64>` and `Bearer <token>`
// in any text (a curl line, a message), an Authorization value, a cookie header. The redactor
// (redaction.ts) calls these with its stand-ins; nothing here remembers a secret.

/** What a redacted report writes in place of each secret; curl lines read the `$PACU_*` ones from the environment. */
export const SECRET_STAND_INS = {
  clientId: '$PACU_CLIENT_ID',
  clientSecret: '$PACU_CLIENT_SECRET',
  token: '$PACU_TOKEN',
  redacted: '[redacted]',
} as const;

/** Fake credentials pacu sends on purpose (auth rules): evidence, not secrets. */
export const FAKE_TOKEN_PREFIX = 'pacu-never-issued-';

const BASIC = /\bBasic\s+([A-Za-z0-9+/]{6,}={0,2})(?![A-Za-z0-9+/=])/gi;
/** `Bearer <value>`, and whether an Authorization header (or curl's -H) introduces it. */
const BEARER = /(\bauthorization\s*:\s*)?\bBearer\s+([^\s"',;]+)/gi;
/**
 * A value after "Bearer" that is a word of a sentence ("must use the Bearer scheme."), not a
 * credential: letters only, shorter than any token a provider issues. Tokens the run saw are
 * redacted by value anyway; this guards the ones it never saw without eating prose.
 */
const PROSE_WORD = /^[A-Za-z]{1,23}[.:)!?]*$/;
const MAY_HOLD_CREDENTIAL = /basic|bearer/i;

/** The client a run knows, so a Basic credential of its own is shown by name. */
export interface KnownClient {
  readonly clientId?: string;
  readonly clientSecret?: string;
}

/** `id:secret` as stand-ins, keeping what pacu added on purpose (a wrong secret's suffix). */
function basicMarker(encoded: string, client: KnownClient): string | undefined {
  const pair = decodeBasic(encoded);
  // biome-ignore lint/suspicious/noControlCharactersInRegex: binary garbage means it was no credential.
  if (!pair || /[\u0000-\u001f\ufffd]/.test(`${pair.user}:${pair.password}`)) return undefined;
  const { user, password } = pair;
  if (client.clientId === undefined || user !== client.clientId)
    return `Basic <${SECRET_STAND_INS.redacted}>`;
  const secret = client.clientSecret ?? '';
  const suffix = password.slice(secret.length);
  const rest =
    !secret || !password.startsWith(secret)
      ? SECRET_STAND_INS.redacted
      : suffix === ''
        ? SECRET_STAND_INS.clientSecret
        : `\${PACU_CLIENT_SECRET}${suffix}`;
  return `Basic <${SECRET_STAND_INS.clientId}:${rest}>`;
}

/** Basic and Bearer credentials in `text` as stand-ins; `isAuthorization` when the text is an Authorization value. */
export function schemeText(text: string, client: KnownClient, isAuthorization = false): string {
  if (!isAuthorization && !MAY_HOLD_CREDENTIAL.test(text)) return text;
  return text
    .replace(BASIC, (all, encoded: string) => basicMarker(encoded, client) ?? all)
    .replace(BEARER, (all, header: string | undefined, token: string) =>
      token.startsWith(FAKE_TOKEN_PREFIX) ||
      token.startsWith('$') ||
      (!header && !isAuthorization && PROSE_WORD.test(token))
        ? all
        : `${header ?? ''}${all.slice(header?.length ?? 0, all.length - token.length)}${SECRET_STAND_INS.token}`,
    );
}

/** An Authorization value: Basic and Bearer by their stand-ins, another scheme's credential whole. */
export function authorizationText(value: string, client: KnownClient): string {
  if (parseAuthorization(value)?.scheme === 'other')
    return `${value.split(/[ \t]/)[0]} ${SECRET_STAND_INS.redacted}`;
  return schemeText(value, client, true);
}

/** A Cookie or Set-Cookie value: the names and attributes kept, the values redacted. */
export const cookieText = (value: string, setCookie: boolean): string =>
  setCookie
    ? value.replace(/^([^=;]*=)[^;]*/, `$1${SECRET_STAND_INS.redacted}`)
    : value.replace(/(^|;\s*)([^=;]*=)[^;]*/g, `$1$2${SECRET_STAND_INS.redacted}`);

/** The values of a Cookie (all) or Set-Cookie (the first, before its attributes) header. */
export function cookieValues(value: string, setCookie: boolean): string[] {
  const values: string[] = [];
  for (const [, cookie] of value.matchAll(/(?:^|;)\s*[^=;]*=([^;]*)/g)) {
    values.push((cookie ?? '').trim());
    if (setCookie) break;
  }
  return values;
}
