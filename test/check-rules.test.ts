import { describe, expect, it } from 'vitest';
import { loadSpec, type Profile } from '../spec/index.ts';
import { RULES } from '../suites/index.ts';
import { checkTestProvider, failedRuleIds, failuresIn } from './providers/run-against.ts';
import type { TestProviderOptions } from './providers/test-provider.ts';

// One case list, every provider (hono's router/common.case.test.ts): each rule is broken on purpose
// by exactly one provider variant, and that variant must fail that rule and no other.
const spec = await loadSpec();
const cases = RULES.map((rule) => {
  const documented = spec.operations.some(
    (operation) => rule.appliesTo(operation) && rule.profileFor(operation) === 'documented',
  );
  return {
    id: rule.id,
    style: documented ? ('different' as const) : ('pacu' as const),
    profile: documented ? ('documented' as const) : ('strict' as const),
  };
});

describe('every rule catches the provider that breaks it, and only that rule fails', () => {
  it.each(cases)('$id ($style provider, $profile profile)', async ({ id, style, profile }) => {
    const report = await checkTestProvider(style, profile, id);
    const failed = [
      ...new Set(report.rules.filter((rule) => rule.status === 'failed').map((rule) => rule.id)),
    ];
    expect(failed, failuresIn(report).join('\n')).toEqual([id]);
    const failure = report.rules.find((rule) => rule.id === id && rule.status === 'failed')?.failure;
    expect(failure?.curl).toMatch(/^curl -i -X /);
    // A reason a person can act on: a sentence, no placeholder that leaked from a missing value.
    expect(failure?.reason).toMatch(/^\S.{19,}$/s);
    expect(failure?.reason).not.toMatch(/\bundefined\b|\[object \w+\]|\bNaN\b/);
    expect(failure?.id.startsWith(`${id}/`) || failure?.id.startsWith(`${id}@`)).toBe(true);
  });
});

// Every rule against every provider: correct ones in other legal ways pass, and a provider that is
// wrong in one way fails exactly the rules about that way.
const IDEMPOTENCY = [
  'idempotency.same-reference-replay',
  'idempotency.same-reference-different-body',
  'idempotency.concurrent-requests',
];
const providers: ReadonlyArray<{
  name: string;
  options: TestProviderOptions;
  profile: Profile;
  fails: readonly string[];
  runs?: number;
}> = [
  {
    name: 'a provider making other legal choices',
    options: { style: 'different' },
    profile: 'documented',
    fails: [],
  },
  { name: "a provider making pacu's decisions", options: { style: 'pacu' }, profile: 'strict', fails: [] },
  {
    name: 'a stateless provider answering the same ids for every request (finding 2)',
    options: { style: 'different', sameIds: true },
    profile: 'documented',
    fails: IDEMPOTENCY,
  },
  {
    name: 'a provider whose tokens live 2 s (finding 7)',
    options: { style: 'different', tokenLifetimeSeconds: 2 },
    profile: 'documented',
    fails: [],
    // Enough cases that the run outlives several tokens.
    runs: 100,
  },
  {
    name: 'a correct provider that accepts any string as recipient_email (finding 6)',
    options: { style: 'different', anyRecipientEmail: true },
    profile: 'documented',
    fails: [],
    runs: 100,
  },
  {
    name: 'a correct provider that grants every scope of the client whatever is asked, and says so',
    options: { style: 'different', grantsEveryScope: true },
    profile: 'documented',
    fails: [],
  },
];

describe('every rule against every provider', () => {
  it.each(providers)('$name ($profile)', async ({ options, profile, fails, runs }) => {
    const report = await checkTestProvider(options, profile, undefined, runs);
    expect(failedRuleIds(report), failuresIn(report).join('\n')).toEqual(fails);
    expect(report.summary.passed).toBeGreaterThan(40);
    if (options.style === 'pacu')
      expect(report.rules.filter((rule) => rule.status === 'skipped')).toEqual([]);
  });
});
