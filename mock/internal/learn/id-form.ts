import { randomInt, randomUUID } from 'node:crypto';

/** The form of an id, as a sandbox writes them: what a fresh one of the same kind must look like. */
export type IdForm =
  | { readonly kind: 'uuid'; readonly upper: boolean }
  | { readonly kind: 'ulid' }
  | { readonly kind: 'digits'; readonly length: number }
  | {
      readonly kind: 'token';
      /** Up to and including the last separator of a word-like head (`txn_`, `sbx_at_`), or ''. */
      readonly prefix: string;
      readonly alphabet: Alphabet;
      readonly length: number;
    };

/** Character sets of an id's body, narrowest first: a form takes the narrowest that holds every sample. */
const ALPHABETS = {
  digits: '0123456789',
  hex: '0123456789abcdef',
  HEX: '0123456789ABCDEF',
  'lower-alphanumeric': '0123456789abcdefghijklmnopqrstuvwxyz',
  'upper-alphanumeric': '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ',
  alphanumeric: '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz',
  base64url: '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-_',
} as const;

export type Alphabet = keyof typeof ALPHABETS;
const ORDER = Object.keys(ALPHABETS) as Alphabet[];

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ULID = /^[0-7][0-9A-HJKMNP-TV-Z]{25}$/;
const PREFIX = /^(?:[A-Za-z][A-Za-z0-9]*[_-])+/;
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

function alphabetOf(body: string): Alphabet | undefined {
  return ORDER.find((name) => [...body].every((character) => ALPHABETS[name].includes(character)));
}

/** The form of one id, or undefined when it is no id-like string (spaces, punctuation). */
function formOfOne(value: string): IdForm | undefined {
  if (UUID.test(value)) return { kind: 'uuid', upper: value !== value.toLowerCase() };
  if (ULID.test(value)) return { kind: 'ulid' };
  if (/^[0-9]+$/.test(value)) return { kind: 'digits', length: value.length };
  const prefix = PREFIX.exec(value)?.[0] ?? '';
  const body = value.slice(prefix.length);
  const alphabet = body.length >= 4 ? alphabetOf(body) : undefined;
  return alphabet ? { kind: 'token', prefix, alphabet, length: body.length } : undefined;
}

/**
 * The one form every sample shares, or undefined when they disagree or are no ids. Bodies of
 * different lengths take the longest (counters grow); alphabets the widest seen (a hex counter may
 * show digits only).
 */
export function idFormOf(samples: readonly string[]): IdForm | undefined {
  const forms = samples.map(formOfOne);
  const [first] = forms;
  if (!first || forms.some((form) => form === undefined || form.kind !== first.kind)) return undefined;
  const all = forms as IdForm[];
  if (first.kind === 'digits')
    return { kind: 'digits', length: Math.max(...all.map((form) => (form as { length: number }).length)) };
  if (first.kind !== 'token') return first;
  const tokens = all as Array<Extract<IdForm, { kind: 'token' }>>;
  if (tokens.some((form) => form.prefix !== first.prefix)) return undefined;
  const widest = Math.max(...tokens.map((form) => ORDER.indexOf(form.alphabet)));
  // hex and HEX together are no one alphabet: the widest that holds both.
  const mixedCase =
    tokens.some((form) => form.alphabet === 'hex') && tokens.some((form) => form.alphabet === 'HEX');
  return {
    kind: 'token',
    prefix: first.prefix,
    alphabet: mixedCase ? 'alphanumeric' : (ORDER[widest] as Alphabet),
    length: Math.max(...tokens.map((form) => form.length)),
  };
}

/** Whether a lone string looks made by a generator (a UUID, a ULID, a prefixed or long id). */
export function looksGenerated(value: string): boolean {
  const form = formOfOne(value);
  if (!form) return false;
  if (form.kind === 'token') return form.prefix !== '' ? /[0-9]/.test(value) : form.length >= 12;
  return form.kind !== 'digits' || form.length >= 6;
}

/** The form in words, for the learned summary: `UUID`, `txn_ + 12 hex`. */
export function describeIdForm(form: IdForm): string {
  switch (form.kind) {
    case 'uuid':
      return form.upper ? 'UUID (upper case)' : 'UUID';
    case 'ulid':
      return 'ULID';
    case 'digits':
      return `${form.length} digits`;
    case 'token':
      return `${form.prefix ? `${form.prefix} + ` : ''}${form.length} ${form.alphabet}`;
  }
}

function randomText(alphabet: string, length: number): string {
  let out = '';
  for (let index = 0; index < length; index++) out += alphabet[randomInt(alphabet.length)];
  return out;
}

/** A maker of fresh ids in `form`, random so they never meet a recorded one. */
export function idMaker(form: IdForm): () => string {
  switch (form.kind) {
    case 'uuid':
      return form.upper ? () => randomUUID().toUpperCase() : () => randomUUID();
    case 'ulid':
      return () => {
        // 48 bits of milliseconds, then 80 random bits, both in Crockford's base 32.
        let time = Date.now();
        let head = '';
        for (let index = 0; index < 10; index++) {
          head = (CROCKFORD[time % 32] as string) + head;
          time = Math.floor(time / 32);
        }
        return head + randomText(CROCKFORD, 16);
      };
    case 'digits':
      return () => String(1 + randomInt(9)) + randomText(ALPHABETS.digits, form.length - 1);
    case 'token':
      return () => form.prefix + randomText(ALPHABETS[form.alphabet], form.length);
  }
}
