import type { Command } from 'commander';
import { OPERATION_IDS } from '../spec/index.ts';
import { RULES } from '../suites/index.ts';
import type { CliIo, CommandOutcome } from './cli-io.ts';

interface RulesCommandOptions {
  json?: boolean;
}

/** `documented`, `strict`, or which operations the rule is documented on when that differs by operation. */
function profileOf(rule: (typeof RULES)[number]): string {
  const documented = rule.operations.filter((operation) => rule.profileFor(operation) === 'documented');
  if (documented.length === rule.operations.length) return 'documented';
  if (documented.length === 0) return 'strict';
  return `documented on ${documented.join(', ')}; strict elsewhere`;
}

/** `pacu rules`: every check rule with its id, category, profile and title (what `--rule` takes). */
export function registerRulesCommand(program: Command, io: CliIo, _outcome: CommandOutcome): void {
  program
    .command('rules')
    .description(
      'list the rules pacu check runs: id, category, profile, title (--rule and --exclude-rule take ids, categories or globs)',
    )
    .option('--json', 'print one JSON document instead of text')
    .action((options: RulesCommandOptions) => {
      const rows = RULES.map((rule) => ({
        id: rule.id,
        category: rule.category,
        profile: profileOf(rule),
        title: rule.title,
        operations: rule.operations.length === OPERATION_IDS.length ? 'all' : rule.operations.join(', '),
      }));
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
