// A file pacu cannot parse is told in a reader's words, with where: not V8's `Unexpected token 'o',
// "not a har" is not valid JSON`, nor the YAML parser's code frame on five lines.

/** `line 3, column 14` of the character at `offset` of `text`, both counted from 1. */
function where(text: string, offset: number): string {
  const before = text.slice(0, Math.max(0, Math.min(offset, text.length)));
  const line = before.split('\n').length;
  return `line ${line}, column ${before.length - before.lastIndexOf('\n')}`;
}

const lowerFirst = (text: string): string => text.charAt(0).toLowerCase() + text.slice(1);

/** How the text begins, when that is what gives it away (an HTML page, a stray word). */
const begins = (text: string): string => JSON.stringify(text.trimStart().split('\n')[0]?.slice(0, 24) ?? '');

/**
 * Where in its first `within` characters the parser met `character` and stopped: V8 shows a short
 * text whole, so the token may occur there more than once. The prefix up to the real one is the
 * first that fails on that token (the parser is in the same state there as in the whole text).
 */
function firstStop(text: string, character: string, within: number): number {
  let first = -1;
  for (let at = text.indexOf(character); at !== -1 && at < within; at = text.indexOf(character, at + 1)) {
    if (first === -1) first = at;
    try {
      JSON.parse(text.slice(0, at + 1));
    } catch (error) {
      if ((error as Error).message.startsWith(`Unexpected token '${character}'`)) return at;
    }
  }
  return first;
}

/**
 * Why `text` is not JSON, as one clause for a message that names the file: `it is empty`, or `it is
 * not JSON (line 1, column 2: unexpected "o"; it begins "not a har")`.
 *
 * @example
 * throw new ConfigError(`pacu: ${file} is not a HAR recording: ${jsonProblem(text, error)}`);
 */
export function jsonProblem(text: string, error: unknown): string {
  if (text.trim() === '') return 'it is empty';
  if (text.charCodeAt(0) === 0xfeff) return 'it starts with a byte-order mark: save it as UTF-8 without one';
  const message = error instanceof Error ? error.message : String(error);
  if (message.startsWith('Unexpected end of JSON input'))
    return `it is not valid JSON (it stops at ${where(text, text.length)} before the JSON ends: cut short?)`;
  const at = /^(.*?) (in|after) JSON at position (\d+)/.exec(message);
  if (at)
    return `it is not valid JSON (${where(text, Number(at[3]))}: ${lowerFirst(at[1] ?? '')}${at[2] === 'after' ? ' after the JSON value' : ''})`;
  // V8 names the token and the text around it (ten characters either side, `...` where cut).
  const token = /^Unexpected token '([\s\S]+?)', (\.\.\.)?"([\s\S]*?)"(?:\.\.\.)? is not valid JSON/.exec(
    message,
  );
  if (token) {
    const [, character = '', cut, around = ''] = token;
    const offset = cut ? text.indexOf(around) + 10 : firstStop(text, character, around.length);
    const first = where(text, offset).startsWith('line 1,');
    return `it is not ${first ? '' : 'valid '}JSON (${where(text, offset)}: unexpected ${JSON.stringify(character)}${first ? `; it begins ${begins(text)}` : ''})`;
  }
  return `it is not valid JSON (${message.split('\n')[0]})`;
}

/**
 * Why a YAML (or JSON, which the YAML parser reads too) text did not parse, as one clause: `it is
 * not valid YAML (line 1, column 4: nested mappings are not allowed in compact mappings)`.
 */
export function yamlProblem(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const position = (error as { linePos?: Array<{ line: number; col: number }> }).linePos?.[0];
  const what = lowerFirst(message.split('\n')[0]?.replace(/ at line \d+, column \d+:?$/, '') ?? message);
  return position
    ? `it is not valid YAML (line ${position.line}, column ${position.col}: ${what})`
    : `it is not valid YAML (${what})`;
}
