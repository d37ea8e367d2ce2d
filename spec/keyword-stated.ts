import type { TracedConstraint } from './traceability.ts';

/** A word of the description, not part of a longer identifier (`number` is not in `account_number`). */
const hasWord = (text: string, word: string): boolean =>
  new RegExp(`(?<![A-Za-z0-9_])${word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![A-Za-z0-9_])`).test(text);

/** The cells of a table row, or undefined for a sentence. */
function cellsOf(text: string): string[] | undefined {
  if (!text.startsWith('|')) return undefined;
  return text
    .replace(/^\||\|$/g, '')
    .split('|')
    .map((cell) => cell.trim());
}

/**
 * Words that say a field is there: the Required column's "yes", a verb that hands it over (returns,
 * carries, adds, echoes, holds), "present", "for each", or a value it takes on success, on creation
 * or as shown. "not shown" says the opposite, so a sentence with it states no presence.
 */
const PRESENCE =
  /\byes\b|\breturns?\b|\breturned\b|\bcarries\b|\badds\b|\bechoe[sd]\b|\bpresent\b|\bholds\b|\bfor each\b|\bon success\b|\bon creation\b|\bshown\b/;

function statesPresence(text: string, field: string, path: string): boolean {
  if (!hasWord(text, field) || text.includes('not shown')) return false;
  if (EVERY_RESPONSE_ROWS.some((row) => text.startsWith(row))) return true;
  // A path parameter is a segment of the path: naming it as one states that it is there.
  if (path.startsWith('parameters.') && /\bPath parameters?\b/.test(text)) return true;
  // "`success` is false": a field whose value is stated is there.
  if (new RegExp(`\`${field}\` is `).test(text)) return true;
  const cells = cellsOf(text);
  // In a table row only the cells after the field's own name speak about it.
  return PRESENCE.test(cells ? cells.slice(1).join(' | ') : text);
}

/** The words for `type`: a row's Type column, or the type named in a sentence; a record is an object. */
function statesType(text: string, type: string): boolean {
  const cells = cellsOf(text);
  const said = cells ? (cells[1] ?? '') : text;
  // A record, request or envelope is a set of named fields, as is a list of "`name` (type)" pairs.
  if (type === 'object')
    return /\bobject\b|\benvelope\b|\brecord\b|\brequest\b|`data`|(`\w+` \(\w+\).*){2}/.test(said);
  if (type === 'array') return /\barray\b/.test(said);
  return new RegExp(`\\b${type}s?\\b`).test(cells ? (said.split(/[\s(]/)[0] ?? '') : said);
}

/** Each pattern of the documented view, with the words that state it; a new pattern needs its words here. */
export const PATTERN_WORDS: Readonly<Record<string, readonly string[]>> = {
  '^(0[1-9]|1[0-2])/[0-9]{2}$': ['month and two-digit year', 'MM/YY'],
  '^[0-9]{6}$': ['first six digits'],
  '^[0-9]{4}$': ['last four digits'],
  '^\\s*[^,\\s]+\\s*(,\\s*[^,\\s]+\\s*)*$': ['comma-separated scope names'],
  '(?:[Zz]|[+-]00(?::?00)?)$': ['ISO 8601 UTC'],
};

/**
 * Rows of the table headed "Response envelope (every JSON response)": the heading hands every row's
 * field to every JSON response (`data` says on which), which the row's own cells do not repeat.
 */
const EVERY_RESPONSE_ROWS: readonly string[] = ['| success | boolean |', '| message | string |'];

const FORMAT_WORDS: Readonly<Record<string, string>> = { 'date-time': 'ISO 8601', email: 'e-mail' };

const lastField = (path: string): string => path.replace(/\[\]$/, '').split('.').pop() ?? '';

/**
 * Whether the cited words state the constraint's keyword, not merely name its field: a type row
 * states a type, not presence; "one of A, B" states an enum of A and B. Undefined when they do; else
 * why not. Keywords with no rule here are never stated (add one when the spec needs it).
 */
export function whyNotStated(constraint: TracedConstraint): string | undefined {
  const { keyword, value, path } = constraint;
  const text = constraint.source ?? '';
  const field = lastField(path);
  const stated = ((): boolean => {
    switch (keyword) {
      case 'required':
        return statesPresence(text, field, path);
      case 'type':
        return statesType(text, String(value));
      case 'const':
        return hasWord(text, String(value));
      case 'enum':
        return (value as unknown[]).every((item) => hasWord(text, String(item)));
      case 'format':
        return FORMAT_WORDS[String(value)] !== undefined && text.includes(FORMAT_WORDS[String(value)] ?? '');
      case 'pattern':
        return (PATTERN_WORDS[String(value)] ?? []).some((words) => text.includes(words));
      case 'additionalProperties':
        return value === false && /\bonly\b/.test(text);
      default:
        return false;
    }
  })();
  return stated ? undefined : `"${text}" does not state ${keyword} ${JSON.stringify(value)} of ${path}`;
}
