import { describe, expect, it } from 'vitest';
import { RULES } from '../suites/index.ts';
import { checkTestProvider, failuresIn } from './providers/run-against.ts';

// One case list, every provider (hono's router/common.case.test.ts): each rule is broken on purpose
// by exactly one provider variant, and that variant must fail that rule and no other.
const cases = RULES.map((rule) => {
  const documented = rule.operations.some((operation) => rule.profileFor(operation) === 'documented');
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
    expect(failure?.reason).toBeTruthy();
  });
});

describe('correct providers pass', () => {
  it('a provider making other legal choices passes every documented rule', async () => {
    const report = await checkTestProvider('different', 'documented');
    expect(failuresIn(report)).toEqual([]);
    expect(report.summary.passed).toBeGreaterThan(50);
  });

  it("a provider making pacu's decisions passes every rule under strict", async () => {
    const report = await checkTestProvider('pacu', 'strict');
    expect(failuresIn(report)).toEqual([]);
    expect(report.rules.filter((rule) => rule.status === 'skipped')).toEqual([]);
  });
});
