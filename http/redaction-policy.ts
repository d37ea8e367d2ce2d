// Which header and field names say their value is a credential, a CVV or a card number. A name is
// split into words: any word secret, password, passphrase or credential, or a last word token or
// key, names a credential (`token_type` describes one, and does not). A team's own names match
// exactly. Names are judged after their escapes are undone (redaction.ts, decision 166).

/** Words that make a name a credential's wherever they stand in it. */
const ANYWHERE = new Set(['secret', 'password', 'passwd', 'passphrase', 'credential', 'apikey', 'pwd']);
/** Words that make a name a credential's as its last word. */
const LAST = new Set(['token', 'key']);
/** Headers whose whole value is a credential, whatever the policy says of their words. */
const CREDENTIAL_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie']);
/** Words that name a card's verification code (PCI DSS: never kept after authorization). */
const CVV_WORDS = new Set(['cvv', 'cvc', 'cvv2', 'cvc2', 'cav2', 'cvn', 'csc']);
/** Word pairs that name one too: `security_code`, `verificationValue`. */
const CVV_PAIRS = ['security code', 'verification code', 'verification value'];
/** Words and word runs that name a card number (a PAN). */
const PAN_WORDS = new Set(['pan', 'cardnumber', 'ccnumber', 'ccnum']);
const PAN_RUNS = ['card number', 'card num', 'card no', 'cc number', 'primary account number'];

/** The words of a name: camelCase humps and runs between `-`, `_`, `.` or spaces, in lower case, a plural `s` dropped. */
function wordsOf(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[-_.\s]+/)
    .filter(Boolean)
    .map((word) => (word.length > 3 && word.endsWith('s') ? word.slice(0, -1) : word));
}

/** What a name says its value is, to the policy: a credential, a card's CVV, a card number, or nothing. */
export type FieldVerdict = 'secret' | 'cvv' | 'card-number' | undefined;

/** Names seen, and what each says: the same few names come with every exchange. */
const verdicts = new Map<string, FieldVerdict>();
const VERDICTS_KEPT = 4096;

function verdictOf(name: string): FieldVerdict {
  const words = wordsOf(name);
  if (words.some((word) => ANYWHERE.has(word)) || LAST.has(words.at(-1) ?? '')) return 'secret';
  const joined = ` ${words.join(' ')} `;
  if (words.some((word) => CVV_WORDS.has(word)) || CVV_PAIRS.some((pair) => joined.includes(` ${pair} `)))
    return 'cvv';
  if (words.some((word) => PAN_WORDS.has(word)) || PAN_RUNS.some((run) => joined.includes(` ${run} `)))
    return 'card-number';
  return undefined;
}

/** What a name says of its value by the words policy alone (no team names, card data included). */
export function nameVerdict(name: string): FieldVerdict {
  let verdict = verdicts.get(name);
  if (verdict === undefined && !verdicts.has(name)) {
    verdict = verdictOf(name);
    if (verdicts.size >= VERDICTS_KEPT) verdicts.clear();
    verdicts.set(name, verdict);
  }
  return verdict;
}

/** Whether a field or header name says its value is a credential, by the words policy alone. */
export const isSecretName = (name: string): boolean => nameVerdict(name) === 'secret';

/** Names a team added (`--redact-header`, `--redact-field`), compared without case; and whether card data is kept. */
export interface TeamNames {
  readonly headers: ReadonlySet<string>;
  readonly fields: ReadonlySet<string>;
  /** `--keep-card-data`: card numbers and CVVs are shown as they came. */
  readonly keepCardData: boolean;
}

export const teamNames = (
  headers: readonly string[] = [],
  fields: readonly string[] = [],
  keepCardData = false,
): TeamNames => ({
  headers: new Set(headers.map((name) => name.toLowerCase())),
  fields: new Set(fields.map((name) => name.toLowerCase())),
  keepCardData,
});

/** What a field name says of its value under a team's policy. */
export function fieldVerdict(name: string, team: TeamNames): FieldVerdict {
  if (team.fields.size > 0 && team.fields.has(name.toLowerCase())) return 'secret';
  const verdict = nameVerdict(name);
  return verdict !== 'secret' && team.keepCardData ? undefined : verdict;
}

export const isSecretField = (name: string, team: TeamNames): boolean =>
  fieldVerdict(name, team) === 'secret';

/** How a header's value is redacted: by its scheme, by cookie, whole, or only where it holds a known secret. */
export type HeaderClass = 'authorization' | 'cookie' | 'set-cookie' | 'secret' | 'plain';

export function headerClass(name: string, team: TeamNames): HeaderClass {
  const lower = name.toLowerCase();
  if (lower === 'authorization' || lower === 'proxy-authorization') return 'authorization';
  if (lower === 'cookie' || lower === 'set-cookie') return lower;
  return team.headers.has(lower) || isSecretName(lower) ? 'secret' : 'plain';
}

export const isCredentialHeader = (name: string, team: TeamNames): boolean =>
  CREDENTIAL_HEADERS.has(name.toLowerCase()) || headerClass(name, team) !== 'plain';

/** Fragments of the names the policy judges. */
const SECRET_FRAGMENTS = ['secret', 'passw', 'passphrase', 'credential', 'apikey', 'pwd', 'token', 'key'];
const CARD_FRAGMENTS = [
  'cvv',
  'cvc',
  'cvn',
  'cav2',
  'csc',
  'security',
  'verification',
  'card',
  'ccnum',
  'cc_num',
  'primary',
];

const isLetter = (code: number): boolean => (code >= 97 && code <= 122) || (code >= 65 && code <= 90);

/** `pan` as a word of its own (cardPan, pan_id, "pan"), not inside one (company, expand). */
function hasPanWord(text: string): boolean {
  const lower = text.toLowerCase();
  for (let at = lower.indexOf('pan'); at >= 0; at = lower.indexOf('pan', at + 1)) {
    const before = text.charCodeAt(at - 1);
    const after = text.charCodeAt(at + 3);
    // Not a letter before it, or a camelCase hump (cardPan); not a lower-case letter after it.
    if ((!isLetter(before) || text.charCodeAt(at) === 80) && !(after >= 97 && after <= 122)) return true;
  }
  return false;
}

/** `text` as a regular expression that matches it literally. */
export const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Whether a text may hold a name the policy judges, or an escape that could hide one (`\u`, `%`):
 * a text without any has no field to judge, and its structure is not read. Literal fragments only
 * (a pattern that starts with a class is read at every position): a proxy asks it of every body.
 */
export function nameHint(team: TeamNames): (text: string) => boolean {
  const cards = !team.keepCardData;
  const fragments = [
    ...SECRET_FRAGMENTS,
    ...(cards ? CARD_FRAGMENTS : []),
    ...[...team.fields].map(escapeRegExp),
  ];
  const pattern = new RegExp(fragments.join('|'), 'i');
  return (text) =>
    text.includes('%') ||
    text.includes('\\u') ||
    pattern.test(text) ||
    (cards && (text.includes('pan') || text.includes('Pan') || text.includes('PAN')) && hasPanWord(text));
}
