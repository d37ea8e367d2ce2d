// Credentials and card data in every place a request can carry them and every encoding a client may
// write them in, for the tests that look for them in what pacu shows of its traffic.
import fc from 'fast-check';

/** A request to send, and the secret it carries (alphanumeric: its encodings are the request's own). */
export interface SecretCase {
  readonly place: string;
  readonly secret: string;
  readonly method: 'GET' | 'POST';
  /** Path and query under the base path, e.g. `/users?password=…`. */
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body?: string;
}

/** Names the policy reads as a credential's, in the cases clients write them. */
const NAMES = [
  'password',
  'PASSWORD',
  'passwd',
  'pwd',
  'token',
  'TOKEN',
  'client_secret',
  'clientSecret',
  'api_key',
  'apiKey',
  'access_token',
  'refresh_token',
  'secret',
  'Passphrase',
];
const HEADER_NAMES = ['x-api-key', 'X-Auth-Token', 'api-key', 'x-access-token', 'x-client-secret'];

const hex = (code: number, width: number): string => code.toString(16).toUpperCase().padStart(width, '0');
/** The name with one character percent-encoded (or `+` for a space), as a form or a query may write it. */
const percentName = (name: string, at: number): string =>
  `${name.slice(0, at)}%${hex(name.charCodeAt(at), 2)}${name.slice(at + 1)}`;
/** The name as a JSON key with one character written as a `\u` escape. */
const escapedName = (name: string, at: number): string =>
  `${name.slice(0, at)}\\u${hex(name.charCodeAt(at), 4).toLowerCase()}${name.slice(at + 1)}`;
/** JSON text of a string whose letters may be written as `\u` escapes. */
const jsonString = (text: string, at: number | undefined): string =>
  at === undefined ? JSON.stringify(text) : `"${escapedName(text, at % text.length)}"`;

const BOUNDARY = 'pacu-boundary-38';
const multipart = (name: string, value: string): string =>
  `--${BOUNDARY}\r\nContent-Disposition: form-data; name="user_id"\r\n\r\nusr_1\r\n--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\nContent-Type: text/plain\r\n\r\n${value}\r\n--${BOUNDARY}--\r\n`;

const json = { 'content-type': 'application/json' };

/** Every place a credential can ride, built around `secret` with `name` (and which character to encode). */
function build(place: string, name: string, at: number, secret: string, header: string): SecretCase {
  const n = at % name.length;
  const base = { place, secret, headers: {} as Record<string, string> };
  switch (place) {
    case 'query-first':
      return { ...base, method: 'GET', path: `/users?${name}=${secret}` };
    case 'query-later':
      return { ...base, method: 'GET', path: `/users?page=1&${name}=${secret}` };
    case 'query-encoded-name':
      return { ...base, method: 'GET', path: `/users?${percentName(name, n)}=${secret}` };
    case 'json':
      return {
        ...base,
        method: 'POST',
        path: '/accounts',
        headers: json,
        body: `{"user_id":"usr_1","${name}":"${secret}"}`,
      };
    case 'json-escaped-name':
      return {
        ...base,
        method: 'POST',
        path: '/accounts',
        headers: json,
        body: `{"user_id":"usr_1","${escapedName(name, n)}":"${secret}"}`,
      };
    case 'json-escaped-value':
      return {
        ...base,
        method: 'POST',
        path: '/accounts',
        headers: json,
        body: `{"user_id":"usr_1","${name}":${jsonString(secret, at)}}`,
      };
    case 'json-nested':
      return {
        ...base,
        method: 'POST',
        path: '/accounts',
        headers: json,
        body: JSON.stringify({ user_id: 'usr_1', meta: { list: [{ [name]: secret }] } }),
      };
    case 'json-in-string':
      return {
        ...base,
        method: 'POST',
        path: '/accounts',
        headers: json,
        body: JSON.stringify({ user_id: 'usr_1', payload: JSON.stringify({ [name]: secret }) }),
      };
    case 'url-in-json':
      return {
        ...base,
        method: 'POST',
        path: '/accounts',
        headers: json,
        body: JSON.stringify({ user_id: 'usr_1', next: `https://h.example/v3/users?${name}=${secret}` }),
      };
    case 'form-first':
      return {
        ...base,
        method: 'POST',
        path: '/auth/token',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: `${percentName(name, n)}=${secret}&grant_type=client_credentials`,
      };
    case 'form-later':
      return {
        ...base,
        method: 'POST',
        path: '/auth/token',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: `grant_type=client_credentials&scope=card&${name}=${secret}`,
      };
    case 'multipart':
      return {
        ...base,
        method: 'POST',
        path: '/accounts',
        headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
        body: multipart(name, secret),
      };
    case 'header':
      return { ...base, method: 'GET', path: '/users', headers: { [header]: secret } };
    case 'bearer':
      return { ...base, method: 'GET', path: '/users', headers: { authorization: `Bearer ${secret}` } };
    case 'basic':
      return {
        ...base,
        method: 'POST',
        path: '/auth/token',
        headers: {
          authorization: `Basic ${Buffer.from(`client-38:${secret}`).toString('base64')}`,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: 'grant_type=client_credentials',
      };
    default:
      return { ...base, method: 'GET', path: '/users', headers: { cookie: `theme=dark; sid=${secret}` } };
  }
}

export const PLACES = [
  'query-first',
  'query-later',
  'query-encoded-name',
  'json',
  'json-escaped-name',
  'json-escaped-value',
  'json-nested',
  'json-in-string',
  'url-in-json',
  'form-first',
  'form-later',
  'multipart',
  'header',
  'bearer',
  'basic',
  'cookie',
] as const;

/** A credential in a place, under a name, written in an encoding; each case's secret is its own. */
export const secretCase = (): fc.Arbitrary<SecretCase> =>
  fc
    .record({
      place: fc.constantFrom(...PLACES),
      name: fc.constantFrom(...NAMES),
      header: fc.constantFrom(...HEADER_NAMES),
      at: fc.nat(40),
      secret: fc.stringMatching(/^[A-Za-z0-9]{10,20}$/),
    })
    .map(({ place, name, header, at, secret }) => build(place, name, at, `sx${secret}`, header));

/** Whether `text` holds `secret` in clear, or percent-, `\u`- or base64-encoded as a request may have carried it. */
export function holds(text: string, secret: string): boolean {
  const unescaped = text
    .replace(/\\+u([0-9a-fA-F]{4})/g, (_, code: string) => String.fromCharCode(Number.parseInt(code, 16)))
    .replace(/%([0-9a-fA-F]{2})/g, (_, code: string) => String.fromCharCode(Number.parseInt(code, 16)));
  return (
    text.includes(secret) ||
    unescaped.includes(secret) ||
    text.includes(Buffer.from(`client-38:${secret}`).toString('base64'))
  );
}

/** A card number that passes the Luhn check, of 15 or 16 digits. */
export const cardNumber = (): fc.Arbitrary<string> =>
  fc
    .tuple(
      fc.constantFrom('4', '5', '37'),
      fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 14, maxLength: 14 }),
    )
    .map(([prefix, digits]) => {
      const body = `${prefix}${digits.join('')}`.slice(0, prefix === '37' ? 14 : 15);
      let sum = 0;
      for (let index = 0; index < body.length; index++) {
        let digit = Number(body[body.length - 1 - index]);
        if (index % 2 === 0) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2;
        sum += digit;
      }
      return `${body}${(10 - (sum % 10)) % 10}`;
    });

/** What a card number keeps when masked: its first six and last four digits, and its length. */
export const maskedCardNumber = (pan: string): string =>
  `${pan.slice(0, 6)}${'*'.repeat(pan.length - 10)}${pan.slice(-4)}`;
