import type { Command } from 'commander';
import { loadSpec, type Spec } from '../spec/index.ts';
import { operationsOf, RULES } from '../suites/index.ts';
import type { CliIo, CommandOutcome } from './cli-io.ts';

interface RulesCommandOptions {
  json?: boolean;
}

/** `documented`, `strict`, or which operations the rule is documented on when that differs by operation. */
export function ruleProfile(rule: (typeof RULES)[number], spec: Spec): string {
  const operations = spec.operations.filter((operation) => rule.appliesTo(operation));
  const documented = operations.filter((operation) => rule.profileFor(operation) === 'documented');
  if (documented.length === operations.length) return 'documented';
  if (documented.length === 0) return 'strict';
  return `documented on ${documented.map((operation) => operation.id).join(', ')}; strict elsewhere`;
}

/** `pacu rules`: every check rule with its id, category, profile and title (what `--rule` takes). */
export function registerRulesCommand(program: Command, io: CliIo, _outcome: CommandOutcome): void {
  program
    .command('rules')
    .description(
      'list the rules pacu check runs: id, category, profile, title (--rule and --exclude-rule take ids, categories or globs)',
    )
    .option('--json', 'print one JSON document instead of text')
    .action(async (options: RulesCommandOptions) => {
      const spec = await loadSpec();
      const rows = RULES.map((rule) => {
        const operations = operationsOf(rule, spec);
        return {
          id: rule.id,
          category: rule.category,
          profile: ruleProfile(rule, spec),
          title: rule.title,
          operations: operations.length === spec.operations.length ? 'all' : operations.join(', '),
        };
      });
      if (options.json) {
        io.stdout(`${JSON.stringify(rows)}\n`);
        return;
      }
      const idWidth = Math.max(...rows.map((row) => row.id.length));
      const categoryWidth = Math.max(...rows.map((row) => row.category.length));
      const profileWidth = Math.max(...rows.map((row) => row.profile.length));
      for (const row of rows)
        io.stdout(
          `${row.id.padEnd(idWidth)}  ${row.category.padEnd(categoryWidth)}  ${row.profile.padEnd(profileWidth)}  ${row.title}\n`,
        );
    });
}
