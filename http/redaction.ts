/** The credentials a run knows up front; tokens join as the target issues them. */
export interface RunSecrets {
  readonly clientId?: string;
  readonly clientSecret?: string;
  /** Any other secret (a webhook signing secret, a broker token). */
  readonly others?: readonly string[];
}

/**
 * The one place secrets leave a report. Every string of every result passes through {@link Redactor.redact}
 * before any reporter sees it: Authorization values (Basic and Bearer), the client secret wherever it
 * occurs, `access_token` values, and every token the target issued during the run.
 */
export interface Redactor {
  /** Remember a secret (an issued token) so it is redacted wherever it shows up. */
  add(secret: string): void;
  /** Remember the `access_token` of a response body, if it has one. */
  observe(response: { readonly json?: unknown }): void;
  /** A deep copy of `value` with every string redacted. */
  redact<T>(value: T): T;
  /**
   * How many secrets it knows: grows when one joins. A caller that keeps redacted text (a proxy
   * keeps a repeated answer's) keeps it only while this is unchanged.
   */
  readonly known: number;
}

/** What a redacted report writes in place of each secret; curl lines read the `$PACU_*` ones from the environment. */
export const SECRET_STAND_INS = {
  clientId: '$PACU_CLIENT_ID',
  clientSecret: '$PACU_CLIENT_SECRET',
  token: '$PACU_TOKEN',
  redacted: '[redacted]',
} as const;

/** Fake credentials pacu sends on purpose (auth rules): evidence, not secrets. */
const FAKE_TOKEN_PREFIX = 'pacu-never-issued-';
/** Shorter secrets would redact ordinary text; no real credential is that short. */
const MIN_SECRET_LENGTH = 4;

const BASIC = /Basic\s+([A-Za-z0-9+/]{6,}={0,2})(?![A-Za-z0-9+/=])/g;
/** `Bearer <value>`, and whether an Authorization header (or curl's -H) introduces it. */
const BEARER = /(\bauthorization\s*:\s*)?\bBearer\s+([^\s"',;]+)/gi;
/**
 * A value after "Bearer" that is a word of a sentence ("must use the Bearer scheme."), not a
 * credential: letters only, shorter than any token a provider issues. Tokens the run saw are
 * redacted by value anyway; this guards the ones it never saw without eating prose.
 */
const PROSE_WORD = /^[A-Za-z]{1,23}[.:)!?]*$/;
const ACCESS_TOKEN_JSON = /("access_token"\s*:\s*)"(?:[^"\\]|\\.)*"/g;
const FORM_FIELD = /\b(client_secret|access_token)=([^&\s"']*)/g;
/** Every pattern above starts with one of these words: a string without any of them matches none. */
const MAY_HOLD_CREDENTIAL = /basic|bearer|access_token|client_secret/i;

type Text = (input: string, isAuthorization: boolean) => string;

function walk(value: unknown, text: Text, isAuthorization = false): unknown {
  if (typeof value === 'string') return text(value, isAuthorization);
  if (Array.isArray(value)) return value.map((item) => walk(item, text));
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [
        key,
        walk(item, text, key.toLowerCase() === 'authorization'),
      ]),
    );
  return value;
}

/**
 * @example
 * const redactor = createRedactor({ clientId: 'acme', clientSecret: 's3cret' });
 * redactor.redact('authorization: Basic YWNtZTpzM2NyZXQ='); // 'authorization: Basic <$PACU_CLIENT_ID:$PACU_CLIENT_SECRET>'
 */
export function createRedactor(secrets: RunSecrets = {}): Redactor {
  const known = new Map<string, string>();
  /** `known`, longest first; rebuilt only when a secret joins (a proxy redacts every exchange). */
  let longestFirst: Array<[string, string]> = [];
  const remember = (secret: string | undefined, standIn: string): void => {
    if (secret && secret.length >= MIN_SECRET_LENGTH && !known.has(secret)) {
      known.set(secret, standIn);
      longestFirst = [...known].sort(([a], [b]) => b.length - a.length);
    }
  };
  remember(secrets.clientSecret, SECRET_STAND_INS.clientSecret);
  if (secrets.clientId !== undefined && secrets.clientSecret)
    remember(
      Buffer.from(`${secrets.clientId}:${secrets.clientSecret}`).toString('base64'),
      `<${SECRET_STAND_INS.clientId}:${SECRET_STAND_INS.clientSecret}>`,
    );
  for (const other of secrets.others ?? []) remember(other, SECRET_STAND_INS.redacted);

  /** `id:secret` as stand-ins, keeping what pacu added on purpose (a wrong secret's suffix). */
  const basicMarker = (encoded: string): string | undefined => {
    const decoded = Buffer.from(encoded, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    // biome-ignore lint/suspicious/noControlCharactersInRegex: binary garbage means it was no credential.
    if (colon < 0 || /[\u0000-\u001f\ufffd]/.test(decoded)) return undefined;
    const id = decoded.slice(0, colon);
    const password = decoded.slice(colon + 1);
    if (secrets.clientId === undefined || id !== secrets.clientId)
      return `Basic <${SECRET_STAND_INS.redacted}>`;
    const secret = secrets.clientSecret ?? '';
    const suffix = password.slice(secret.length);
    const rest =
      !secret || !password.startsWith(secret)
        ? SECRET_STAND_INS.redacted
        : suffix === ''
          ? SECRET_STAND_INS.clientSecret
          : `\${PACU_CLIENT_SECRET}${suffix}`;
    return `Basic <${SECRET_STAND_INS.clientId}:${rest}>`;
  };

  const text: Text = (input, isAuthorization) => {
    // Most strings hold nothing to redact: let them through without four regex passes.
    if (
      !isAuthorization &&
      !MAY_HOLD_CREDENTIAL.test(input) &&
      !longestFirst.some(([secret]) => input.includes(secret))
    )
      return input;
    let out = input
      .replace(BASIC, (all, encoded: string) => basicMarker(encoded) ?? all)
      .replace(BEARER, (all, header: string | undefined, token: string) =>
        token.startsWith(FAKE_TOKEN_PREFIX) ||
        token.startsWith('$') ||
        (!header && !isAuthorization && PROSE_WORD.test(token))
          ? all
          : `${header ?? ''}${all.slice(header?.length ?? 0, all.length - token.length)}${SECRET_STAND_INS.token}`,
      )
      .replace(ACCESS_TOKEN_JSON, (_all, key: string) => `${key}"${SECRET_STAND_INS.redacted}"`)
      .replace(FORM_FIELD, (_all, key: string) =>
        key === 'client_secret'
          ? `${key}=${SECRET_STAND_INS.clientSecret}`
          : `${key}=${SECRET_STAND_INS.redacted}`,
      );
    for (const [secret, standIn] of longestFirst) out = out.split(secret).join(standIn);
    return out;
  };

  return {
    add: (secret) => remember(secret, SECRET_STAND_INS.redacted),
    observe(response) {
      const token = (response.json as { data?: { access_token?: unknown } } | undefined)?.data?.access_token;
      if (typeof token === 'string') remember(token, SECRET_STAND_INS.redacted);
    },
    redact: <T>(value: T): T => walk(value, text) as T,
    get known() {
      return known.size;
    },
  };
}
