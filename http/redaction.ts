import { LRUCache } from 'lru-cache';
import { decodeBasic, parseAuthorization } from './credentials.ts';
import type { HarNameValue } from './har.ts';
import { bodyText, type RequestEnd, type RequestObserver } from './pipeline.ts';
import {
  FORM_FIELD,
  headerClass,
  isSecretField,
  JSON_FIELD,
  nameHint,
  type TeamNames,
  teamNames,
} from './redaction-policy.ts';

/** The credentials a run knows up front, and a team's own names of credentials. */
export interface RunSecrets {
  readonly clientId?: string;
  readonly clientSecret?: string;
  /** Any other secret (a webhook signing secret, a broker token, the mock's clients' secrets). */
  readonly others?: readonly string[];
  /** Header names whose values are credentials, beside the ones the policy knows (`--redact-header`). */
  readonly headers?: readonly string[];
  /** JSON or form field names whose values are credentials, beside the policy's (`--redact-field`). */
  readonly fields?: readonly string[];
}

/**
 * The one place secrets leave, by one policy (decision 113): credentials in Authorization keep their
 * scheme, cookies their names; a header or field whose name says a credential (secret-names.ts) or
 * that a team named loses its value; a value once learned as a credential is replaced everywhere.
 */
export interface Redactor {
  /** Remember a secret so it is redacted wherever it shows up. */
  add(secret: string): void;
  /** Learn the credentials an answer holds (an issued `access_token`). */
  observe(response: { readonly text?: string; readonly json?: unknown }): void;
  /** Learn the credentials an exchange carries: its credential headers and fields, both ways (or the request's only). */
  learn(event: RequestEnd, answers?: boolean): void;
  /** A deep copy of `value` with every string redacted, keys read as header and field names. */
  redact<T>(value: T): T;
  /** A text (a body, a URL, a line) redacted. */
  redactText(text: string): string;
  /** Header pairs redacted by name. */
  redactHeaders(list: readonly HarNameValue[]): HarNameValue[];
  /**
   * How many secrets it has learned so far: grows when one joins. A caller that keeps redacted
   * text (a recording keeps a repeated answer's) keeps it only while this is unchanged.
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
/** Values learned from traffic are longer still: a short value in a `key` field may be a word. */
const MIN_LEARNED_LENGTH = 8;
/** Learned values remembered, newest kept; the given ones are never forgotten. */
const LEARNED_LIMIT = 1024;

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
const REGEX_SPECIAL = /[.*+?^${}()|[\]\\]/g;

/**
 * @example
 * const redactor = createRedactor({ clientId: 'acme', clientSecret: 's3cret' });
 * redactor.redactText('authorization: Basic YWNtZTpzM2NyZXQ='); // 'authorization: Basic <$PACU_CLIENT_ID:$PACU_CLIENT_SECRET>'
 */
export function createRedactor(secrets: RunSecrets = {}): Redactor {
  const team: TeamNames = teamNames(secrets.headers, secrets.fields);
  const hint = nameHint(team);
  // A body is read for credentials, then redacted for the recording: the same string twice, and the
  // hint's test (eight words, any case) is the slowest scan of each. The last two answers are kept.
  let hintedA = '';
  let hintA = false;
  let hintedB = '';
  let hintB = false;
  const hinted = (input: string): boolean => {
    if (input === hintedA) return hintA;
    if (input === hintedB) return hintB;
    hintedB = hintedA;
    hintB = hintA;
    hintedA = input;
    hintA = hint.test(input);
    return hintA;
  };
  const given = new Map<string, string>();
  const learned = new LRUCache<string, string>({ max: LEARNED_LIMIT });
  let version = 0;
  /** Every known secret, longest first, as one pattern; made again only when a secret joins. */
  let pattern: RegExp | undefined;
  let patternVersion = -1;
  const standIn = (secret: string): string | undefined => given.get(secret) ?? learned.get(secret);
  const remember = (secret: string | undefined, stand: string = SECRET_STAND_INS.redacted): void => {
    if (!secret || secret.length < MIN_SECRET_LENGTH || given.has(secret)) return;
    given.set(secret, stand);
    version += 1;
  };
  const learn = (secret: string | undefined): void => {
    if (!secret || secret.length < MIN_LEARNED_LENGTH || given.has(secret) || learned.has(secret)) return;
    if (
      secret.startsWith(FAKE_TOKEN_PREFIX) ||
      secret.startsWith('$') ||
      secret === SECRET_STAND_INS.redacted
    )
      return;
    learned.set(secret, SECRET_STAND_INS.redacted);
    version += 1;
  };
  remember(secrets.clientSecret, SECRET_STAND_INS.clientSecret);
  if (secrets.clientId !== undefined && secrets.clientSecret)
    remember(
      Buffer.from(`${secrets.clientId}:${secrets.clientSecret}`).toString('base64'),
      `<${SECRET_STAND_INS.clientId}:${SECRET_STAND_INS.clientSecret}>`,
    );
  for (const other of secrets.others ?? []) remember(other);

  const knownPattern = (): RegExp | undefined => {
    if (patternVersion !== version) {
      const all = [...given.keys(), ...learned.keys()].sort((a, b) => b.length - a.length);
      pattern =
        all.length === 0
          ? undefined
          : new RegExp(all.map((secret) => secret.replace(REGEX_SPECIAL, '\\$&')).join('|'), 'g');
      patternVersion = version;
    }
    return pattern;
  };

  /** `id:secret` as stand-ins, keeping what pacu added on purpose (a wrong secret's suffix). */
  const basicMarker = (encoded: string): string | undefined => {
    const pair = decodeBasic(encoded);
    // biome-ignore lint/suspicious/noControlCharactersInRegex: binary garbage means it was no credential.
    if (!pair || /[\u0000-\u001f\ufffd]/.test(`${pair.user}:${pair.password}`)) return undefined;
    const { user, password } = pair;
    if (secrets.clientId === undefined || user !== secrets.clientId)
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

  /** A field value's stand-in: a known secret's own, else `[redacted]`. */
  const fieldStandIn = (value: string): string => standIn(value) ?? SECRET_STAND_INS.redacted;

  const text = (input: string, isAuthorization = false): string => {
    let out = input;
    if (isAuthorization || MAY_HOLD_CREDENTIAL.test(out))
      out = out
        .replace(BASIC, (all, encoded: string) => basicMarker(encoded) ?? all)
        .replace(BEARER, (all, header: string | undefined, token: string) =>
          token.startsWith(FAKE_TOKEN_PREFIX) ||
          token.startsWith('$') ||
          (!header && !isAuthorization && PROSE_WORD.test(token))
            ? all
            : `${header ?? ''}${all.slice(header?.length ?? 0, all.length - token.length)}${SECRET_STAND_INS.token}`,
        );
    if (hinted(out))
      out = out
        .replace(JSON_FIELD, (all, name: string, colon: string, value: string) =>
          isSecretField(name, team)
            ? `"${name}"${colon}${JSON.stringify(fieldStandIn(value.startsWith('"') ? unquote(value) : value))}`
            : all,
        )
        .replace(FORM_FIELD, (all, start: string, name: string, value: string) =>
          value && isSecretField(safeDecode(name), team)
            ? `${start}${name}=${fieldStandIn(safeDecode(value))}`
            : all,
        );
    const known = knownPattern();
    if (known) out = out.replace(known, (secret) => standIn(secret) ?? SECRET_STAND_INS.redacted);
    return out;
  };

  const authorizationText = (value: string): string => {
    const credentials = parseAuthorization(value);
    if (credentials?.scheme === 'other') return `${value.split(/[ \t]/)[0]} ${SECRET_STAND_INS.redacted}`;
    return text(value, true);
  };
  const cookieText = (value: string, setCookie: boolean): string =>
    setCookie
      ? value.replace(/^([^=;]*=)[^;]*/, `$1${SECRET_STAND_INS.redacted}`)
      : value.replace(/(^|;\s*)([^=;]*=)[^;]*/g, `$1$2${SECRET_STAND_INS.redacted}`);

  /** A value under a header or field name: by the name's class, else as text. */
  const named = (name: string, value: string): string => {
    switch (headerClass(name, team)) {
      case 'authorization':
        return authorizationText(value);
      case 'cookie':
        return cookieText(value, false);
      case 'set-cookie':
        return cookieText(value, true);
      case 'secret':
        return fieldStandIn(value);
      default:
        return isSecretField(name, team) ? fieldStandIn(value) : text(value);
    }
  };

  const walk = (value: unknown, key?: string): unknown => {
    if (typeof value === 'string') return key === undefined ? text(value) : named(key, value);
    // A number, a list or an object under a credential's name goes whole.
    if (key !== undefined && (typeof value === 'number' || (value && typeof value === 'object')))
      if (isSecretField(key, team)) return SECRET_STAND_INS.redacted;
    if (Array.isArray(value)) return value.map((item) => walk(item, key));
    if (value && typeof value === 'object')
      return Object.fromEntries(Object.entries(value).map(([name, item]) => [name, walk(item, name)]));
    return value;
  };

  /** Values of credential fields in a JSON or form text. */
  const learnFields = (body: string): void => {
    if (!hinted(body)) return;
    for (const [, name, , value] of body.matchAll(JSON_FIELD))
      if (isSecretField(name as string, team))
        learn((value as string).startsWith('"') ? unquote(value as string) : undefined);
    for (const [, , name, value] of body.matchAll(FORM_FIELD))
      if (isSecretField(safeDecode(name as string), team)) learn(safeDecode(value as string));
  };
  const learnHeader = (name: string, value: string): void => {
    switch (headerClass(name, team)) {
      case 'authorization': {
        const credentials = parseAuthorization(value);
        if (credentials?.scheme === 'bearer') learn(credentials.token);
        if (credentials?.scheme === 'basic') {
          learn(credentials.encoded);
          learn(credentials.password);
        }
        return;
      }
      case 'cookie':
      case 'set-cookie':
        for (const [, cookie] of value.matchAll(/(?:^|;)\s*[^=;]*=([^;]*)/g)) {
          learn(cookie?.trim());
          if (name.toLowerCase() === 'set-cookie') return;
        }
        return;
      case 'secret':
        learn(value);
        return;
      default:
    }
  };

  return {
    add: (secret) => remember(secret),
    observe(response) {
      if (response.text !== undefined) return learnFields(response.text);
      const token = (response.json as { data?: { access_token?: unknown } } | undefined)?.data?.access_token;
      if (typeof token === 'string') learn(token);
    },
    learn(event, answers = true) {
      const { request, answer } = event;
      for (const name in request.headers) {
        const value = request.headers[name];
        if (value !== undefined) learnHeader(name, value);
      }
      if (request.body.length > 0) learnFields(bodyText(request));
      if (!answers) return;
      for (const name in answer.headers) {
        const value = answer.headers[name];
        if (typeof value === 'string') learnHeader(name, value);
        else for (const item of value ?? []) learnHeader(name, item);
      }
      if (!answer.repeated) learnFields(answer.text);
    },
    redact: <T>(value: T): T => walk(value) as T,
    redactText: (input) => text(input),
    redactHeaders: (list) => list.map(({ name, value }) => ({ name, value: named(name, value) })),
    get known() {
      return version;
    },
  };
}

/** The string a JSON string literal holds (its text as written when it is not valid JSON). */
function unquote(literal: string): string {
  try {
    return JSON.parse(literal) as string;
  } catch {
    return literal.slice(1, -1);
  }
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

/**
 * The redactor as the first observer of a pipeline: it learns each exchange's credentials before
 * anyone keeps them. `answers: false` for a surface that shows no answer (a mock that neither
 * records nor judges: its journal keeps requests), which spares reading every answer's text.
 */
export const learningObserver = (redactor: Redactor, answers = true): RequestObserver => ({
  end: (event) => redactor.learn(event, answers),
});
