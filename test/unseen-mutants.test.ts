import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { DESCRIPTION_TEXT, SKIPPED_WITHOUT_DESCRIPTION } from '../spec/scripts/interface-description.ts';
import { RULES, runChecks } from '../suites/index.ts';
import { checkSpace, failedRules, failuresOf, spaceTarget } from './providers/space/check-space.ts';
import { MUTANTS, type Mutant } from './providers/space/mutants.ts';
import { startSpaceProvider } from './providers/space/space-provider.ts';
import { checkedStatements, squeeze } from './providers/space/statement-index.ts';

// For every statement of the interface description that pacu checks, a provider that breaks exactly
// that statement (and is the base legal provider otherwise) must make `pacu check` fail with the rule
// that names it.

const STATEMENTS_FILE = fileURLToPath(new URL('../spec/statements.yaml', import.meta.url));
/** Pinned and printed: a missed mutant replays with the same cases. */
const SEED = 17_066;
/** The quotes the index classifies `checked` (spec/statements.yaml is in the repository: no fallback). */
const CHECKED = checkedStatements(readFileSync(STATEMENTS_FILE, 'utf8'));
/** The index is the list of what pacu claims to check: a mutant of a statement it does not claim is not owed a catch. */
const claimed = (mutant: Mutant): boolean =>
  [mutant.key, ...mutant.also].some((key) => CHECKED.some((quote) => quote.includes(squeeze(key))));
const owed = MUTANTS.filter(claimed);
const unclaimed = MUTANTS.filter((mutant) => !claimed(mutant));

describe('the mutant table', () => {
  it('names only rules pacu has', () => {
    const ids = new Set(RULES.map((rule) => rule.id));
    expect(MUTANTS.flatMap((mutant) => mutant.rules).filter((id) => !ids.has(id))).toEqual([]);
  });

  it('gives every mutant its own name', () => {
    const names = MUTANTS.map((mutant) => mutant.name);
    expect(names.filter((name, index) => names.indexOf(name) !== index)).toEqual([]);
  });

  it.skipIf(DESCRIPTION_TEXT === undefined)(
    `keys every mutant by words of the interface description${SKIPPED_WITHOUT_DESCRIPTION}`,
    () => {
      const description = DESCRIPTION_TEXT ?? '';
      const keys = MUTANTS.flatMap((mutant) => [mutant.key, ...mutant.also]);
      expect(keys.filter((key) => !description.includes(key))).toEqual([]);
    },
  );
});

describe('every statement spec/statements.yaml classifies as checked', () => {
  it('has a mutant keyed by words of its quote', () => {
    expect(CHECKED.length).toBeGreaterThan(0);
    const keys = MUTANTS.flatMap((mutant) => [mutant.key, ...mutant.also].map(squeeze));
    const unbroken = CHECKED.filter((quote) => !keys.some((key) => quote.includes(key)));
    expect(unbroken).toEqual([]);
  });
});

// The statements these break are values the description only shows: the index classifies them
// not-shown and names the x-pacu-decision that fills the gap. `documented` must let them pass;
// `strict`, which judges pacu's decisions too, must catch them with the rule the mutant names.
describe(`mutants of statements spec/statements.yaml leaves to a decision (seed ${SEED})`, () => {
  it('are the ones whose statement the index classifies not-shown, with a decision', () => {
    const index = parse(readFileSync(STATEMENTS_FILE, 'utf8')) as Array<{
      quote: string;
      status: string;
      decisions?: string[];
    }>;
    const entryOf = (mutant: Mutant) =>
      index.find((entry) => squeeze(entry.quote).includes(squeeze(mutant.key)));
    expect(unclaimed.length).toBeGreaterThan(0);
    for (const mutant of unclaimed)
      expect(entryOf(mutant), mutant.name).toMatchObject({
        status: 'not-shown',
        decisions: expect.arrayContaining([expect.stringMatching(/^\//)]),
      });
  });

  it.concurrent.each(
    unclaimed.map((mutant) => ({ ...mutant, label: `${mutant.name} [${mutant.rules.join(', ')}]` })),
  )(
    '$label passes under documented and fails under strict',
    async ({ mutation, rules, runs, key }) => {
      const provider = await startSpaceProvider({ mutation });
      try {
        // Under documented, positive.accepted beside them: a strict-only rule alone would check nothing.
        const run = (profile: 'documented' | 'strict') =>
          runChecks({
            target: spaceTarget(provider),
            profile,
            seed: SEED,
            runs,
            rules: profile === 'documented' ? [...rules, 'positive.accepted'] : [...rules],
          });
        const [documented, strict] = await Promise.all([run('documented'), run('strict')]);
        expect(failuresOf(documented), `breaks "${key}"`).toEqual([]);
        expect(documented.summary.passed).toBeGreaterThan(0);
        expect(failedRules(strict), `breaks "${key}"\n${failuresOf(strict).join('\n')}`).toEqual(
          [...rules].sort(),
        );
      } finally {
        await provider.close();
      }
    },
    120_000,
  );
});

describe(`pacu check catches every mutant (seed ${SEED}, documented profile, every rule)`, () => {
  it.concurrent.each(
    owed.map((mutant) => ({ ...mutant, label: `${mutant.name} [${mutant.rules.join(', ')}]` })),
  )(
    '$label',
    async ({ mutation, rules, runs, key }) => {
      const provider = await startSpaceProvider({ mutation });
      try {
        const report = await checkSpace(provider, { seed: SEED, runs, concurrency: 8 });
        expect(failedRules(report), `breaks "${key}"\n${failuresOf(report).join('\n')}`).toEqual(
          expect.arrayContaining([...rules]),
        );
      } finally {
        await provider.close();
      }
    },
    120_000,
  );
});
