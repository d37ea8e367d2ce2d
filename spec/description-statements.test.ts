import { describe, expect, it } from 'vitest';
import { normaliseText, parseStatements } from './description-statements.ts';
import {
  DESCRIPTION_FILE,
  DESCRIPTION_TEXT,
  SKIPPED_WITHOUT_DESCRIPTION,
} from './scripts/interface-description.ts';

describe('parseStatements', () => {
  const text = [
    '# Title',
    '',
    'First sentence. Second one with `code`: here.',
    '',
    '### A table (`data`)',
    '',
    '| Field | Type |',
    '|---|---|',
    '| amount | number |',
    '',
    'Notes:',
    '',
    '1. Endpoint 2: it holds 2.5 units. Then more.',
  ].join('\n');

  it('splits sentences and list items, keeps table data rows, and names each section', () => {
    expect(parseStatements(text).map(({ section, kind, text: said }) => [section, kind, said])).toEqual([
      ['Title', 'sentence', 'First sentence.'],
      ['Title', 'sentence', 'Second one with `code`: here.'],
      ['A table (`data`)', 'row', '| amount | number |'],
      ['A table (`data`)', 'sentence', 'Endpoint 2: it holds 2.5 units.'],
      ['A table (`data`)', 'sentence', 'Then more.'],
    ]);
  });

  describe.skipIf(DESCRIPTION_TEXT === undefined)(
    `on ${DESCRIPTION_FILE}${SKIPPED_WITHOUT_DESCRIPTION}`,
    () => {
      const lines = (DESCRIPTION_TEXT ?? '').split('\n');
      const statements = parseStatements(lines.join('\n'));

      it('loses no word: the statements of each line put together are that line', () => {
        const lost = lines.flatMap((line, index) => {
          const mine = statements.filter((statement) => statement.line === index + 1);
          if (mine.length === 0) return [];
          const whole = normaliseText(line).replace(/^(\d+\.|[-*])\s+/, '');
          return mine.map((s) => s.text).join(' ') === whole ? [] : [`line ${index + 1}: ${line}`];
        });
        expect(lost).toEqual([]);
      });

      it('leaves out only headings, table headers and separators, introductions and blank lines', () => {
        const skipped = lines
          .map((line, index) => ({ line: line.trim(), at: index + 1 }))
          .filter(({ at }) => !statements.some((statement) => statement.line === at))
          .filter(({ line }) => line !== '' && !line.startsWith('#') && !line.endsWith(':'))
          .filter(({ line, at }) => !(line.startsWith('|') && !lines[at - 3]?.trim().startsWith('|')));
        expect(skipped.map(({ line }) => line)).toEqual([]);
      });
    },
  );
});
