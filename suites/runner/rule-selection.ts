import { ConfigError } from '../../spec/index.ts';

interface Selectable {
  readonly id: string;
  readonly category: string;
}

/** `*` in a pattern stands for any run of characters (dots included): `auth.*`, `*.token-*`. */
function globToRegExp(pattern: string): RegExp {
  const source = pattern
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${source}$`);
}

/** Whether `pattern` (a rule id, a category or a glob over ids) names `rule`. */
function matchesRule(pattern: string, rule: Selectable): boolean {
  if (pattern === rule.id || pattern === rule.category) return true;
  return pattern.includes('*') && globToRegExp(pattern).test(rule.id);
}

/**
 * The rules `include` names (all when it is undefined) minus those `exclude` names. A pattern that
 * names no rule at all is a usage error: a typo must not quietly check nothing, or everything.
 */
export function selectRules<T extends Selectable>(
  rules: readonly T[],
  include: readonly string[] | undefined,
  exclude: readonly string[] = [],
): T[] {
  const unknown = [...(include ?? []), ...exclude].filter(
    (pattern) => !rules.some((rule) => matchesRule(pattern, rule)),
  );
  if (unknown.length > 0)
    throw new ConfigError(
      `pacu: unknown rule ${unknown.join(', ')} (give rule ids, categories or globs; pacu rules lists them)`,
    );
  return rules.filter(
    (rule) =>
      (include === undefined || include.some((pattern) => matchesRule(pattern, rule))) &&
      !exclude.some((pattern) => matchesRule(pattern, rule)),
  );
}
