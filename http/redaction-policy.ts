// Which header and field names say their value is a credential. A name is split into words; any
// word secret, password, passphrase or credential, or a last word token or key, names one
// (`token_type` and `key_id` describe one, and do not). A team's own names match exactly.

/** Words that make a name a credential's wherever they stand in it. */
const ANYWHERE = new Set(['secret', 'password', 'passwd', 'passphrase', 'credential', 'apikey', 'pwd']);
/** Words that make a name a credential's as its last word. */
const LAST = new Set(['token', 'key']);
/** Headers whose whole value is a credential, whatever the policy says of their words. */
const CREDENTIAL_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie']);

/** The words of a name: camelCase humps and runs between `-`, `_`, `.` or spaces, in lower case, a plural `s` dropped. */
function wordsOf(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[-_.\s]+/)
    .filter(Boolean)
    .map((word) => (word.length > 3 && word.endsWith('s') ? word.slice(0, -1) : word));
}

/** Names a team added (`--redact-header`, `--redact-field`), compared without case. */
export interface TeamNames {
  readonly headers: ReadonlySet<string>;
  readonly fields: ReadonlySet<string>;
}

export const teamNames = (headers: readonly string[] = [], fields: readonly string[] = []): TeamNames => ({
  headers: new Set(headers.map((name) => name.toLowerCase())),
  fields: new Set(fields.map((name) => name.toLowerCase())),
});

/** Names seen, and whether each says secret: the same few names come with every exchange. */
const verdicts = new Map<string, boolean>();
const VERDICTS_KEPT = 4096;

/** Whether a field or header name says its value is a credential, by the words policy alone. */
export function isSecretName(name: string): boolean {
  let verdict = verdicts.get(name);
  if (verdict === undefined) {
    const words = wordsOf(name);
    verdict = words.some((word) => ANYWHERE.has(word)) || LAST.has(words.at(-1) ?? '');
    if (verdicts.size >= VERDICTS_KEPT) verdicts.clear();
    verdicts.set(name, verdict);
  }
  return verdict;
}

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

export const isSecretField = (name: string, team: TeamNames): boolean =>
  team.fields.has(name.toLowerCase()) || isSecretName(name);

const escaped = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A fragment any credential field name holds: a text without one has no field to redact. */
export function nameHint(team: TeamNames): RegExp {
  const words = ['secret', 'passw', 'passphrase', 'credential', 'apikey', 'pwd', 'token', 'key'];
  return new RegExp([...words, ...[...team.fields].map(escaped)].join('|'), 'i');
}

/** `"name": "value"` or `"name": 123` in JSON text, at any depth: name in group 1, value in group 3. */
export const JSON_FIELD = /"((?:[^"\\]|\\.){1,200})"(\s*:\s*)("(?:[^"\\]|\\.)*"|-?\d[\d.eE+-]*)/g;
/** `name=value` in a form body or a query string: name in group 2, value in group 3. */
export const FORM_FIELD = /(^|[?&])([^=&\s"'<>]{1,200})=([^&\s"'<>]*)/g;
