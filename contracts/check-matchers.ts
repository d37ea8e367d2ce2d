import type { JSONSchema7 } from '../spec/index.ts';
import { matcherVerdict } from './matcher-verdicts.ts';
import type { PactRules } from './pact-file.ts';
import { type PathStep, parseRulePath, schemaAt } from './schema-at-path.ts';
import { rulePathToPath, type SpecFinding } from './spec-finding.ts';

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

/**
 * Check each response matcher against the schema at its path: the verdict of
 * {@link matcherVerdict} for its type, a finding for each one that cannot hold for every body the
 * spec allows.
 */
export function checkMatchers(
  schema: JSONSchema7,
  rules: PactRules,
  examples: readonly unknown[],
  body: { readonly value: unknown; readonly mediaType: string },
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
    const place = {
      facts,
      examples: examples.flatMap((example) => valuesAt(example, steps)),
      pactValues: valuesAt(body.value, steps),
      ...(steps.length === 0 ? { body: { mediaType: body.mediaType } } : {}),
    };
    for (const matcher of matchers) {
      const verdict = matcherVerdict(matcher, place);
      if (!verdict.compatible) findings.push({ part: 'response', path, message: verdict.reason });
    }
  }
  return findings;
}
