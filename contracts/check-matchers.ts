import type { JSONSchema7 } from '../spec/index.ts';
import type { PactMatcher, PactRules } from './pact-file.ts';
import { type PathStep, parseRulePath, type SchemaFacts, schemaAt, typeAllowed } from './schema-at-path.ts';
import { describeValue, rulePathToPath, type SpecFinding } from './spec-finding.ts';

/** Every value at `steps` in `value` (each element for `[*]`). */
function valuesAt(value: unknown, steps: readonly PathStep[]): unknown[] {
  let current: unknown[] = [value];
  for (const step of steps) {
    current = current.flatMap((item) => {
      if (step.kind === 'element') return Array.isArray(item) ? item : [];
      if (item === null || typeof item !== 'object' || Array.isArray(item)) return [];
      const record = item as Record<string, unknown>;
      if (step.kind === 'anyProperty') return Object.values(record);
      return step.name in record ? [record[step.name]] : [];
    });
  }
  return current;
}

function regexProblem(
  matcher: PactMatcher,
  facts: SchemaFacts,
  examples: readonly unknown[],
): string | undefined {
  if (!typeAllowed(facts.types, 'string'))
    return `the spec sends ${facts.types.join(' or ')} here; a regex matcher applies to strings`;
  let regex: RegExp;
  try {
    regex = new RegExp(matcher.regex ?? '');
  } catch {
    return `the regex ${describeValue(matcher.regex)} does not compile`;
  }
  // With an enum the spec names every value it may send: each must pass the consumer's regex.
  const candidates = facts.enum ?? examples;
  const rejected = candidates.filter((value) => typeof value === 'string' && !regex.test(value));
  if (rejected.length === 0) return undefined;
  const source = facts.enum ? 'allows' : 'shows';
  return `the spec ${source} ${rejected.map(describeValue).join(', ')} here, which the regex ${matcher.regex} rejects`;
}

/** Why a matcher at a place cannot hold for every body the spec allows, or undefined when it can. */
function matcherProblem(
  matcher: PactMatcher,
  facts: SchemaFacts,
  examples: readonly unknown[],
): string | undefined {
  const types = facts.types;
  switch (matcher.match) {
    case 'regex':
      return regexProblem(matcher, facts, examples);
    case 'integer':
      if (!types.includes('integer'))
        return `the spec sends ${types.join(' or ') || 'any value'} here; an integer matcher rejects fractional values`;
      return undefined;
    case 'decimal':
      // Pact's decimal matcher rejects whole numbers (150), which a JSON Schema number may be.
      return `the spec sends ${types.join(' or ') || 'any value'} here; a decimal matcher rejects whole numbers such as 150: use a number matcher`;
    case 'number':
      return typeAllowed(types, 'number')
        ? undefined
        : `the spec sends ${types.join(' or ')} here, not a number`;
    case 'boolean':
      return typeAllowed(types, 'boolean')
        ? undefined
        : `the spec sends ${types.join(' or ')} here, not a boolean`;
    case 'datetime':
    case 'timestamp':
    case 'date':
    case 'time':
      return typeAllowed(types, 'string')
        ? undefined
        : `the spec sends ${types.join(' or ')} here, not a ${matcher.match}`;
    case 'type':
      if ((matcher.min !== undefined || matcher.max !== undefined) && !typeAllowed(types, 'array'))
        return `the spec sends ${types.join(' or ')} here; a minimum/maximum type matcher expects an array`;
      return undefined;
    default:
      return undefined;
  }
}

/**
 * Check each response matcher against the schema at its path: the type it demands must be one the
 * spec sends there, and a regex must accept every enum value (or, without an enum, every example).
 */
export function checkMatchers(
  schema: JSONSchema7,
  rules: PactRules,
  examples: readonly unknown[],
): SpecFinding[] {
  const findings: SpecFinding[] = [];
  for (const [rulePath, matchers] of rules) {
    const steps = parseRulePath(rulePath);
    const facts = schemaAt(schema, steps);
    const path = rulePathToPath(rulePath);
    if (!facts) {
      findings.push({ part: 'response', path, message: 'a matcher sits where the spec defines nothing' });
      continue;
    }
    const exampleValues = examples.flatMap((example) => valuesAt(example, steps));
    for (const matcher of matchers) {
      const problem = matcherProblem(matcher, facts, exampleValues);
      if (problem) findings.push({ part: 'response', path, message: problem });
    }
  }
  return findings;
}
