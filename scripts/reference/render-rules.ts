import { checkProfile, checkSurfaces } from '../../cli/rules-command.ts';
import type { Spec, StatementEntry } from '../../spec/index.ts';
import { CHECKS } from '../../suites/index.ts';

const cell = (text: string): string => text.replace(/\|/g, '\\|').replace(/\s+/g, ' ').trim();

/** docs/reference/rules.md: every check of the registry, who applies it, where, under which profile, and what it checks. */
export function renderRules(spec: Spec, entries: readonly StatementEntry[]): string {
  const lines = [
    '# Checks: the rules of `pacu check` and the traffic judge',
    '',
    '<!-- Generated from CHECKS (suites/rules/catalogue.ts) and spec/statements.yaml by `npm run generate`. Do not edit. -->',
    '',
    'One registry holds every check. `check` marks a rule `pacu check` runs; `proxy` a check the traffic judge',
    '(`pacu proxy`, `pacu mock --findings`) applies to each exchange it sees. `fault` says whose a failure is: the',
    "provider's answer, or the client's own request.",
    '',
    '`--rule` and `--exclude-rule` take an id, a category or a glob over ids (`idempotency.*`). A rule runs once',
    'per operation it applies to; `documented` means the interface description states what it checks there (judged',
    'under every profile), `strict` that it judges an `x-pacu-decision` (only under `--profile strict`).',
    '',
    '| check | category | profile | by | fault | title |',
    '|---|---|---|---|---|---|',
    ...CHECKS.map(
      (check) =>
        `| [\`${check.id}\`](#${check.id.replace(/\./g, '')}) | ${check.category} | ${cell(checkProfile(check, spec))} | ${checkSurfaces(check)} | ${check.fault} | ${cell(check.title)} |`,
    ),
  ];
  for (const check of CHECKS) {
    const { rule } = check;
    const statements = entries.filter((entry) => entry.rules.includes(check.id));
    lines.push('', `## ${check.id}`, '', cell(check.title), '');
    lines.push(`- category: ${check.category}; a failure is the ${check.fault}'s`);
    if (check.judge) lines.push(`- the traffic judge applies it (${check.judge})`);
    if (rule) {
      const operations = spec.operations.filter((operation) => rule.appliesTo(operation));
      lines.push(`- pacu check needs: ${rule.needs.length > 0 ? rule.needs.join(', ') : 'nothing'}`);
      if (rule.exclusive) lines.push("- runs alone: it moves the target's clock");
      if (rule.last) lines.push('- runs last: it judges what the other rules received');
      lines.push(
        `- operations: ${operations.map((operation) => `${operation.id} (${rule.profileFor(operation)})`).join(', ') || 'none'}`,
      );
    } else lines.push(`- profile: ${cell(checkProfile(check, spec))}`);
    if (statements.length > 0) {
      lines.push('- the statements of the description it checks:');
      for (const entry of statements) lines.push(`  - ${cell(entry.quote)} (${entry.status})`);
    }
  }
  return `${lines.join('\n')}\n`;
}
