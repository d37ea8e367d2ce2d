import { isUtf8 } from 'node:buffer';
import { LRUCache } from 'lru-cache';
import { maskCardNumber, maskCardNumbersIn } from './card-numbers.ts';
import {
  authorizationText,
  cookieText,
  FAKE_TOKEN_PREFIX,
  SECRET_STAND_INS,
  schemeText,
} from './credential-schemes.ts';
import type { HarNameValue } from './har.ts';
import { KEY_LENGTH, KnownSecrets } from './known-secrets.ts';
import { bodyText, type RequestEnd, type RequestObserver } from './pipeline.ts';
import { createLearner } from './redaction-learning.ts';
import { fieldVerdict, headerClass, nameHint, type TeamNames, teamNames } from './redaction-policy.ts';
import { multipartBoundary, redactJsonText, redactMultipart, type ValueJudge } from './structured-text.ts';

export { SECRET_STAND_INS } from './credential-schemes.ts';

/** The credentials a run knows up front, a team's own names of credentials, and what to do with card data. */
export interface RunSecrets {
  readonly clientId?: string;
  readonly clientSecret?: string;
  /** Any other secret (a webhook signing secret, a broker token, the mock's clients' secrets). */
  readonly others?: readonly string[];
  /** Header names whose values are credentials, beside the ones the policy knows (`--redact-header`). */
  readonly headers?: readonly string[];
  /** JSON or form field names whose values are credentials, beside the policy's (`--redact-field`). */
  readonly fields?: readonly string[];
  /** Show card numbers and CVVs as they came (`--keep-card-data`). @default false: a CVV is removed, a card number masked */
  readonly keepCardData?: boolean;
}

/** A body as a recording holds it: its text, or base64 of its bytes when they are not UTF-8 (HAR's `encoding`). */
export interface RedactedBody {
  readonly text: string;
  readonly encoding?: 'base64';
}

/**
 * The one place secrets leave, by one policy (decisions 113, 166): Authorization keeps its scheme,
 * cookies their names, a credential-named header or field loses its value, a CVV is removed and a
 * card number masked, a value once learned is replaced everywhere. Texts are parsed before names are
 * judged (JSON, query strings, forms, multipart), their escapes undone.
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
  /** A text (a body, a URL, a line) redacted; `contentType` says how a body is framed (a multipart boundary). */
  redactText(text: string, contentType?: string): string;
  /** A body's bytes redacted, as text when they are UTF-8 and base64 when not (byte for byte elsewhere). */
  redactBody(body: Buffer, contentType?: string): RedactedBody;
  /** Header pairs redacted by name. */
  redactHeaders(list: readonly HarNameValue[]): HarNameValue[];
  /**
   * Tell `listener` of each learned secret forgotten to make room (the newest 1,024 are kept),
   * with its stand-in: a keeper that redacts when read (the mock's journal) redacts it still.
   */
  onForget(listener: (secret: string, standIn: string) => void): void;
  /**
   * How many secrets it has learned so far: grows when one joins. A caller that keeps redacted
   * text (a recording keeps a repeated answer's) keeps it only while this is unchanged.
   */
  readonly known: number;
}

/** Shorter secrets would redact ordinary text; no real credential is that short. */
const MIN_SECRET_LENGTH = KEY_LENGTH;
/** Values learned from traffic are longer still: a short value in a `key` field may be a word. */
const MIN_LEARNED_LENGTH = 8;
/** Learned values remembered, newest kept; the given ones are never forgotten. */
const LEARNED_LIMIT = 1024;
/** Structures inside structures (a JSON text in a JSON string in a form) are read this deep. */
const MAX_DEPTH = 4;

/**
 * @example
 * const redactor = createRedactor({ clientId: 'acme', clientSecret: 's3cret' });
 * redactor.redactText('authorization: Basic YWNtZTpzM2NyZXQ='); // 'authorization: Basic <$PACU_CLIENT_ID:$PACU_CLIENT_SECRET>'
 * redactor.redactText('http://h/v3/users?password=hunter2'); // 'http://h/v3/users?password=[redacted]'
 */
export function createRedactor(secrets: RunSecrets = {}): Redactor {
  const team: TeamNames = teamNames(secrets.headers, secrets.fields, secrets.keepCardData);
  const hint = nameHint(team);
  // A body is read for credentials, then redacted for the recording: the same string twice, and the
  // hint's test is the slowest scan of each. The last two answers are kept.
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
    hintA = hint(input);
    return hintA;
  };
  const given = new Map<string, string>();
  const forgetting: ((secret: string, standIn: string) => void)[] = [];
  /** Every secret given or learned, found in a text as they join and leave. */
  const known = new KnownSecrets();
  const learned = new LRUCache<string, string>({
    max: LEARNED_LIMIT,
    dispose: (standIn, secret, reason) => {
      if (reason !== 'evict' && reason !== 'delete') return;
      known.delete(secret);
      if (reason === 'evict') for (const tell of forgetting) tell(secret, standIn);
    },
  });
  let version = 0;
  const standIn = (secret: string): string | undefined => given.get(secret) ?? learned.get(secret);
  const remember = (secret: string | undefined, stand: string = SECRET_STAND_INS.redacted): void => {
    if (!secret || secret.length < MIN_SECRET_LENGTH || given.has(secret)) return;
    given.set(secret, stand);
    known.add(secret);
    version += 1;
  };
  const learn = (secret: string | undefined, stand: string = SECRET_STAND_INS.redacted): void => {
    if (!secret || secret.length < MIN_LEARNED_LENGTH || given.has(secret) || learned.has(secret)) return;
    if (secret.startsWith(FAKE_TOKEN_PREFIX) || secret.startsWith('$') || secret === stand) return;
    learned.set(secret, stand);
    known.add(secret);
    version += 1;
  };
  /** A card number seen under its name is masked wherever it shows up later (an echo in a message). */
  const learnCard = (value: string): void => {
    if (value.replace(/\D/g, '').length >= 12) learn(value, maskCardNumber(value));
  };
  remember(secrets.clientSecret, SECRET_STAND_INS.clientSecret);
  if (secrets.clientId !== undefined && secrets.clientSecret)
    remember(
      Buffer.from(`${secrets.clientId}:${secrets.clientSecret}`).toString('base64'),
      `<${SECRET_STAND_INS.clientId}:${SECRET_STAND_INS.clientSecret}>`,
    );
  for (const other of secrets.others ?? []) remember(other);

  /** A field value's stand-in: a known secret's own, else `[redacted]`. */
  const fieldStandIn = (value: string): string => standIn(value) ?? SECRET_STAND_INS.redacted;

  /** Credentials by scheme, and every known secret, in text no structure says more of. */
  const free = (input: string, isAuthorization = false): string => {
    const out = schemeText(input, secrets, isAuthorization);
    return known.replace(out, fieldStandIn);
  };

  /** What a value under `name` becomes by the name alone, or undefined when the name says nothing. */
  const byName = (name: string, value: string): string | undefined => {
    switch (headerClass(name, team)) {
      case 'authorization':
        return free(authorizationText(value, secrets), true);
      case 'cookie':
        return cookieText(value, false);
      case 'set-cookie':
        return cookieText(value, true);
      case 'secret':
        return fieldStandIn(value);
      default:
    }
    const verdict = fieldVerdict(name, team);
    if (verdict === 'secret') return fieldStandIn(value);
    if (verdict === 'cvv') return SECRET_STAND_INS.redacted;
    if (verdict === 'card-number') return free(maskCardNumber(value));
    return undefined;
  };
  /** A value that is no string (a number, a list, an object) under `name`, as the string it becomes. */
  const wholeByName = (name: string, raw: string): string | undefined => {
    const verdict = fieldVerdict(name, team);
    if (verdict === 'card-number')
      return /^-?\d+$/.test(raw) ? maskCardNumber(raw) : SECRET_STAND_INS.redacted;
    return verdict || headerClass(name, team) !== 'plain' ? SECRET_STAND_INS.redacted : undefined;
  };

  const redacting: ValueJudge = {
    named: byName,
    whole: wholeByName,
    nested: (value, depth) => structured(value, depth),
  };
  function structured(input: string, depth: number, contentType?: string): string {
    let out = input;
    if (depth <= MAX_DEPTH && hinted(out)) {
      const boundary = multipartBoundary(contentType, out);
      out = boundary
        ? redactMultipart(out, boundary, redacting, depth)
        : redactJsonText(out, redacting, depth);
      // A text that speaks of cards (or of credentials) is looked at for card numbers no name announces.
      if (!team.keepCardData) out = maskCardNumbersIn(out);
    }
    return free(out);
  }

  const named = (name: string, value: string): string => byName(name, value) ?? structured(value, 0);

  const walk = (value: unknown, key?: string): unknown => {
    if (typeof value === 'string') return key === undefined ? structured(value, 0) : named(key, value);
    if (key !== undefined && typeof value === 'number') return wholeByName(key, String(value)) ?? value;
    // A list or an object under a credential's name goes whole.
    if (key !== undefined && value && typeof value === 'object' && fieldVerdict(key, team) !== 'card-number')
      if (wholeByName(key, '{}') !== undefined) return SECRET_STAND_INS.redacted;
    if (Array.isArray(value)) return value.map((item) => walk(item, key));
    if (value && typeof value === 'object') {
      const walked = Object.fromEntries(
        Object.entries(value).map(([name, item]) => [name, walk(item, name)]),
      );
      // A recorded body given as base64 (HAR's `encoding`): its bytes are redacted, not its base64.
      const body = value as { text?: unknown; encoding?: unknown; mimeType?: unknown };
      if (body.encoding === 'base64' && typeof body.text === 'string')
        walked.text = redactBody(
          Buffer.from(body.text, 'base64'),
          typeof body.mimeType === 'string' ? body.mimeType : undefined,
        ).text;
      return walked;
    }
    return value;
  };

  function redactBody(body: Buffer, contentType?: string): RedactedBody {
    if (isUtf8(body)) return { text: structured(body.toString('utf8'), 0, contentType) };
    // Bytes that are no UTF-8 are read a character a byte: every byte outside a redacted value stays.
    const text = structured(body.toString('latin1'), 0, contentType);
    return { text: Buffer.from(text, 'latin1').toString('base64'), encoding: 'base64' };
  }

  const { learnHeader, learnFields } = createLearner({ team, hinted, learn, learnCard, maxDepth: MAX_DEPTH });

  return {
    add: (secret) => remember(secret),
    onForget: (listener) => {
      forgetting.push(listener);
    },
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
      if (request.body.length > 0) learnFields(bodyText(request), 0, request.headers['content-type']);
      if (!answers) return;
      for (const name in answer.headers) {
        const value = answer.headers[name];
        if (typeof value === 'string') learnHeader(name, value);
        else for (const item of value ?? []) learnHeader(name, item);
      }
      if (!answer.repeated) learnFields(answer.text);
    },
    redact: <T>(value: T): T => walk(value) as T,
    redactText: (input, contentType) => structured(input, 0, contentType),
    redactBody,
    redactHeaders: (list) => list.map(({ name, value }) => ({ name, value: named(name, value) })),
    get known() {
      return version;
    },
  };
}

/**
 * The redactor as the first observer of a pipeline: it learns each exchange's credentials before
 * anyone keeps them. `answers: false` for a surface that shows no answer (a mock that neither
 * records nor judges: its journal keeps requests), which spares reading every answer's text.
 */
export const learningObserver = (redactor: Redactor, answers = true): RequestObserver => ({
  end: (event) => redactor.learn(event, answers),
});
