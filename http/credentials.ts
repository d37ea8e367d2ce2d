// The one reader of Authorization values: the mock's authentication, the judges, the check runner,
// the contract checks and the redactor all ask here. Auth schemes are case-insensitive (RFC 9110
// 11.1), and one or more spaces or tabs may follow the scheme.

/** An Authorization value read by its scheme. */
export type Credentials =
  | {
      readonly scheme: 'basic';
      /** The base64 text as sent. */
      readonly encoded: string;
      /** The user name (the client id), or undefined when the text is not base64 of `user:password`. */
      readonly user: string | undefined;
      readonly password: string | undefined;
    }
  | { readonly scheme: 'bearer'; readonly token: string }
  | { readonly scheme: 'other'; readonly name: string };

const BASIC = /^basic[ \t]+(\S+)[ \t]*$/i;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
const BEARER = /^bearer[ \t]+(\S+)[ \t]*$/i;
const SCHEME = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+)(?:[ \t]|$)/;

/**
 * `user:password` of a Basic credential's base64 text, as sent: no percent-decoding (RFC 6749
 * 2.3.1 form-encodes both; the token endpoint undoes that itself).
 */
export function decodeBasic(encoded: string): { user: string; password: string } | undefined {
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon < 0 ? undefined : { user: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

let lastHeader: string | undefined;
let lastCredentials: Credentials | undefined;

/**
 * The credentials of an Authorization value: Basic (decoded), Bearer (its token), another scheme
 * (its name), or undefined for no value or one that is no credential of either scheme.
 *
 * @example
 * parseAuthorization('bearer  abc'); // { scheme: 'bearer', token: 'abc' }
 */
export function parseAuthorization(header: string | undefined): Credentials | undefined {
  if (!header) return undefined;
  // A proxy reads each request's value three times (redactor, judge, state), and a client sends
  // the same one again and again: the last value's reading is kept (it is read-only).
  if (header !== lastHeader) {
    lastHeader = header;
    lastCredentials = readAuthorization(header);
  }
  return lastCredentials;
}

function readAuthorization(header: string): Credentials | undefined {
  const bearer = BEARER.exec(header);
  if (bearer) return { scheme: 'bearer', token: bearer[1] as string };
  const basic = BASIC.exec(header);
  if (basic) {
    const encoded = basic[1] as string;
    // Text that is not base64 names no user, whatever Buffer would make of it.
    const pair = BASE64.test(encoded) ? decodeBasic(encoded) : undefined;
    return { scheme: 'basic', encoded, user: pair?.user, password: pair?.password };
  }
  const other = SCHEME.exec(header);
  return other ? { scheme: 'other', name: (other[1] as string).toLowerCase() } : undefined;
}

/** The bearer token of an Authorization value, or undefined. */
export const bearerToken = (header: string | undefined): string | undefined => {
  const credentials = parseAuthorization(header);
  return credentials?.scheme === 'bearer' ? credentials.token : undefined;
};

/** Whether an Authorization value carries a credential of `scheme` (any case, a value after it). */
export const hasScheme = (header: string | undefined, scheme: 'basic' | 'bearer'): boolean =>
  parseAuthorization(header)?.scheme === scheme;
