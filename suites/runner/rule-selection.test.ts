import { describe, expect, it } from 'vitest';
import { RULES } from '../rules/catalogue.ts';
import { selectRules } from './rule-selection.ts';

const ids = (include?: string[], exclude?: string[]): string[] =>
  selectRules(RULES, include, exclude).map((rule) => rule.id);

describe('selectRules', () => {
  it('takes ids, categories and globs, then leaves out what --exclude-rule names', () => {
    expect(ids(['auth.token-grant'])).toEqual(['auth.token-grant']);
    expect(ids(['idempotency'])).toEqual(RULES.filter((r) => r.category === 'idempotency').map((r) => r.id));
    expect(ids(['*.token-*'])).toEqual([
      'auth.token-grant',
      'auth.token-refusals',
      'auth.token-refused-early',
      'auth.token-expired',
    ]);
    expect(ids(['auth.*'], ['auth.token-expired', 'auth.token-refused-early', 'auth.scope-*'])).toEqual([
      'auth.token-grant',
      'auth.granted-scope',
      'auth.token-refusals',
      'auth.bearer-required',
    ]);
    expect(ids(undefined, ['lifecycle', 'errors'])).toHaveLength(
      RULES.filter((r) => r.category !== 'lifecycle' && r.category !== 'errors').length,
    );
  });

  it('refuses a pattern that names no rule, so a typo never checks nothing', () => {
    expect(() => ids(['auth.tokn-grant'])).toThrow(/unknown rule auth\.tokn-grant/);
    expect(() => ids(undefined, ['envelop.*'])).toThrow(/unknown rule envelop\.\*/);
  });
});
