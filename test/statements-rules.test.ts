import { describe, expect, it } from 'vitest';
import { loadStatementIndex } from '../spec/index.ts';
import { RULES } from '../suites/rules/catalogue.ts';

// spec/ must not import suites/, so the rule ids of the reverse index are checked from here.
describe('spec/statements.yaml names only rules pacu check knows', async () => {
  const entries = await loadStatementIndex();
  const known = new Set(RULES.map((rule) => rule.id));

  it('every rule id of the index is in suites/catalogue.ts RULES', () => {
    const unknown = entries.flatMap((entry) =>
      entry.rules.filter((id) => !known.has(id)).map((id) => `${id} (for "${entry.quote}")`),
    );
    expect(unknown).toEqual([]);
  });

  it('the index names rules at all (else the check above proves nothing)', () => {
    expect(entries.some((entry) => entry.rules.length > 0)).toBe(true);
  });
});
