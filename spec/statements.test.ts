import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { normaliseText, parseStatements } from './description-statements.ts';
import { loadSpec } from './index.ts';
import {
  DESCRIPTION_FILE,
  DESCRIPTION_TEXT,
  SKIPPED_WITHOUT_DESCRIPTION,
} from './scripts/interface-description.ts';
import { renderStatements } from './scripts/render-statements.ts';
import { entryMatches, indexStatements, loadStatementIndex, refersTo } from './statement-index.ts';
import { documentedConstraints } from './traceability.ts';

describe('spec/statements.yaml, statement by statement', async () => {
  const spec = await loadSpec();
  const entries = await loadStatementIndex();
  const constraints = documentedConstraints(spec);
  const pointers = new Set(spec.decisions.map((decision) => decision.pointer));

  it('a checked entry names what checks it, and every name exists', () => {
    const wrong = entries.flatMap((entry) => {
      const problems: string[] = [];
      if (entry.status === 'checked' && entry.constraints.length + entry.rules.length === 0)
        problems.push('checked by nothing');
      for (const reference of entry.constraints)
        if (!constraints.some((constraint) => refersTo(reference, constraint)))
          problems.push(`no documented constraint ${reference}`);
      for (const rule of entry.rules)
        if (!/^[a-z]+\.[a-z-]+$/.test(rule)) problems.push(`${rule} is not a rule id`);
      for (const pointer of entry.decisions)
        if (!pointers.has(pointer)) problems.push(`no x-pacu-decision at ${pointer}`);
      return problems.map((problem) => `${entry.quote}: ${problem}`);
    });
    expect(wrong).toEqual([]);
  });

  it('an entry that is not checked says why, or names the decision that fills the gap', () => {
    const silent = entries.filter((entry) =>
      entry.status === 'not-shown'
        ? entry.decisions.length === 0 && !entry.why
        : entry.status !== 'checked' && !entry.why,
    );
    expect(silent.map((entry) => entry.quote)).toEqual([]);
  });

  describe.skipIf(DESCRIPTION_TEXT === undefined)(
    `against ${DESCRIPTION_FILE}${SKIPPED_WITHOUT_DESCRIPTION}`,
    () => {
      const statements = parseStatements(DESCRIPTION_TEXT ?? '');

      it('parses the sentences and table rows of the description', () => {
        expect(statements.filter((s) => s.kind === 'row').length).toBeGreaterThan(90);
        expect(statements.filter((s) => s.kind === 'sentence').length).toBeGreaterThan(40);
      });

      it('every sentence and table row of the description is in an entry', () => {
        const missing = indexStatements(statements, entries).filter(
          (indexed) => indexed.entries.length === 0,
        );
        expect(missing.map(({ statement }) => `line ${statement.line}: ${statement.text}`)).toEqual([]);
      });

      it("every entry's quote is in exactly one statement of the description (add its section if not)", () => {
        const wrong = entries.flatMap((entry) => {
          const found = statements.filter((statement) => entryMatches(entry, statement)).length;
          return found === 1
            ? []
            : [`${entry.quote} (${entry.section ?? 'any section'}): found ${found} times`];
        });
        expect(wrong).toEqual([]);
      });

      it('every documented constraint is listed by an entry of the statement its source quotes', () => {
        const indexed = indexStatements(statements, entries);
        // A heading is no statement: the `data` object it names is listed with its table's rows.
        const unlisted = constraints.filter((constraint) => {
          const source = normaliseText(constraint.source ?? '');
          if (source.startsWith('#')) return false;
          return !indexed.some(
            ({ statement, entries: held }) =>
              normaliseText(statement.text).includes(source) &&
              held.some((entry) => entry.constraints.some((reference) => refersTo(reference, constraint))),
          );
        });
        expect(unlisted.map((c) => `${c.operation} ${c.path} ${c.keyword} (${c.source})`)).toEqual([]);
      });

      it('docs/reference/statements.md is what npm run generate makes of the index now', async () => {
        const current = await readFile(new URL('../docs/reference/statements.md', import.meta.url), 'utf8');
        const fresh = renderStatements(statements, entries);
        expect(current === fresh, 'stale: run npm run generate').toBe(true);
      });
    },
  );
});
