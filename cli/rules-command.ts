import type { Command } from 'commander';
import { loadSpec, type Spec } from '../spec/index.ts';
import { CHECKS, type CheckEntry, operationsOf, type Rule } from '../suites/index.ts';
import type { CliIo, CommandOutcome } from './cli-io.ts';

interface RulesCommandOptions {
  json?: boolean;
}

/** `documented`, `strict`, or which operations the rule is documented on when that differs by operation. */
export function ruleProfile(rule: Rule, spec: Spec): string {
  const operations = spec.operations.filter((operation) => rule.appliesTo(operation));
  const documented = operations.filter((operation) => rule.profileFor(operation) === 'documented');
  if (documented.length === operations.length) return 'documented';
  if (documented.length === 0) return 'strict';
  return `documented on ${documented.map((operation) => operation.id).join(', ')}; strict elsewhere`;
}

/** The profile of a registry entry: its rule's, else what the traffic judge's findings carry. */
export const checkProfile = (entry: CheckEntry, spec: Spec): string =>
  entry.rule ? ruleProfile(entry.rule, spec) : (entry.profile ?? 'documented');

/** Who applies a check: `pacu check` (its rule), the traffic judge (`pacu proxy`, `pacu mock --findings`), or both. */
export const checkSurfaces = (entry: CheckEntry): string =>
  [entry.rule ? 'check' : '', entry.judge ? 'proxy' : ''].filter(Boolean).join('+');

/** `pacu rules`: every check of the registry with its id, category, profile and title (what `--rule` takes). */
export function registerRulesCommand(program: Command, io: CliIo, _outcome: CommandOutcome): void {
  program
    .command('rules')
    .description(
      "list pacu's checks: id, category, profile, who applies it (check, proxy), whose fault a failure is, title (--rule and --exclude-rule take ids, categories or globs)",
    )
    .option('--json', 'print one JSON document instead of text')
    .action(async (options: RulesCommandOptions) => {
      const spec = await loadSpec();
      const rows = CHECKS.map((entry) => {
        const operations = entry.rule ? operationsOf(entry.rule, spec) : spec.operations.map((o) => o.id);
        return {
          id: entry.id,
          category: entry.category,
          profile: checkProfile(entry, spec),
          title: entry.title,
          operations: operations.length === spec.operations.length ? 'all' : operations.join(', '),
          by: checkSurfaces(entry),
          fault: entry.fault,
        };
      });
      if (options.json) {
        io.stdout(`${JSON.stringify(rows)}\n`);
        return;
      }
      const idWidth = Math.max(...rows.map((row) => row.id.length));
      const categoryWidth = Math.max(...rows.map((row) => row.category.length));
      const profileWidth = Math.max(...rows.map((row) => row.profile.length));
      const byWidth = Math.max(...rows.map((row) => row.by.length));
      for (const row of rows)
        io.stdout(
          `${row.id.padEnd(idWidth)}  ${row.category.padEnd(categoryWidth)}  ${row.profile.padEnd(profileWidth)}  ${row.by.padEnd(byWidth)}  ${row.fault.padEnd(8)}  ${row.title}\n`,
        );
    });
}
