import { ruleProfile } from '../../cli/rules-command.ts';
import type { Spec, StatementEntry } from '../../spec/index.ts';
import { RULES } from '../../suites/index.ts';

const cell = (text: string): string => text.replace(/\|/g, '\\|').replace(/\s+/g, ' ').trim();

/** docs/reference/rules.md: every rule of `pacu check`, where it applies, under which profile, and what it checks. */
export function renderRules(spec: Spec, entries: readonly StatementEntry[]): string {
  const lines = [
    '# Rules of `pacu check`',
    '',
    '<!-- Generated from RULES (suites/) and spec/statements.yaml by `npm run generate`. Do not edit. -->',
    '',
    '`--rule` and `--exclude-rule` take an id, a category or a glob over ids (`idempotency.*`). A rule runs once',
    'per operation it applies to; `documented` means the interface description states what it checks there (judged',
    'under every profile), `strict` that it judges an `x-pacu-decision` (only under `--profile strict`).',
    '',
    '| rule | category | profile | title |',
    '|---|---|---|---|',
    ...RULES.map(
      (rule) =>
        `| [\`${rule.id}\`](#${rule.id.replace(/\./g, '')}) | ${rule.category} | ${cell(ruleProfile(rule, spec))} | ${cell(rule.title)} |`,
    ),
  ];
  for (const rule of RULES) {
    const operations = spec.operations.filter((operation) => rule.appliesTo(operation));
    const statements = entries.filter((entry) => entry.rules.includes(rule.id));
    lines.push('', `## ${rule.id}`, '', cell(rule.title), '');
    lines.push(
      `- category: ${rule.category}; needs: ${rule.needs.length > 0 ? rule.needs.join(', ') : 'nothing'}`,
    );
    if (rule.exclusive) lines.push("- runs alone: it moves the target's clock");
    if (rule.last) lines.push('- runs last: it judges what the other rules received');
    lines.push(
      `- operations: ${operations.map((operation) => `${operation.id} (${rule.profileFor(operation)})`).join(', ') || 'none'}`,
    );
    if (statements.length > 0) {
      lines.push('- the statements of the description it checks:');
      for (const entry of statements) lines.push(`  - ${cell(entry.quote)} (${entry.status})`);
    }
  }
  return `${lines.join('\n')}\n`;
}
