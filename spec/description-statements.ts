/** One statement of the interface description: a sentence or a table row, as written. */
export interface Statement {
  /** The heading it sits under, without its `#` marks. */
  readonly section: string;
  readonly kind: 'sentence' | 'row';
  /** The sentence or the whole row, with runs of spaces and tabs made one space. */
  readonly text: string;
  /** 1-based line of the description it starts on. */
  readonly line: number;
}

/** Runs of spaces and tabs become one: the description wraps nothing, so this is the only liberty. */
export const normaliseText = (text: string): string => text.replace(/[ \t]+/g, ' ').trim();

const isSeparatorRow = (line: string): boolean => /^\|(\s*:?-+:?\s*\|)+$/.test(line);

/** Sentences end in `.`, `!` or `?` before a space and a capital, a backtick or a digit. */
function splitSentences(text: string): string[] {
  return text
    .split(/(?<=[.!?])\s+(?=[A-Z`{0-9])/)
    .map(normaliseText)
    .filter((sentence) => sentence !== '');
}

/**
 * Every statement of the interface description, in order: each sentence of a paragraph or list
 * item and each data row of a table. Not statements: headings (they name the section), a table's
 * header and separator rows, and a line that only introduces what follows (it ends in `:`).
 */
export function parseStatements(description: string): Statement[] {
  const statements: Statement[] = [];
  let section = '';
  let tableHeaderSeen = false;
  for (const [index, raw] of description.split('\n').entries()) {
    const line = raw.trim();
    const at = index + 1;
    if (!line.startsWith('|')) tableHeaderSeen = false;
    if (line === '') continue;
    const heading = line.match(/^#+\s+(.*)$/);
    if (heading) {
      section = normaliseText(heading[1] ?? '');
      continue;
    }
    if (line.startsWith('|')) {
      // The first row of a table names its columns; the second only draws the line under them.
      if (!tableHeaderSeen) tableHeaderSeen = true;
      else if (!isSeparatorRow(line))
        statements.push({ section, kind: 'row', text: normaliseText(line), line: at });
      continue;
    }
    if (line.endsWith(':')) continue;
    const item = line.replace(/^(\d+\.|[-*])\s+/, '');
    for (const text of splitSentences(item)) statements.push({ section, kind: 'sentence', text, line: at });
  }
  return statements;
}
