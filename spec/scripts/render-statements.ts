import type { Statement } from '../description-statements.ts';
import {
  indexStatements,
  STATEMENT_STATUSES,
  type StatementEntry,
  type StatementStatus,
} from '../statement-index.ts';

const cell = (text: string): string => text.replace(/\|/g, '\\|').replace(/\s+/g, ' ');
const code = (text: string): string => `\`${text.replace(/`/g, "'")}\``;

/** A statement is checked when any of its entries checks it; else it takes its first entry's status. */
function statusOf(entries: readonly StatementEntry[]): StatementStatus | undefined {
  return entries.some((entry) => entry.status === 'checked') ? 'checked' : entries[0]?.status;
}

function what(entries: readonly StatementEntry[]): string {
  const parts = entries.flatMap((entry) => [
    ...entry.constraints.map(code),
    ...entry.rules.map((rule) => `rule ${code(rule)}`),
    ...entry.decisions.map((pointer) => `decision ${code(pointer)}`),
    ...(entry.why ? [cell(entry.why)] : []),
  ]);
  return parts.join('<br>');
}

/** The counts docs/reference/statements.md opens with. */
export function statementCounts(
  statements: readonly Statement[],
  entries: readonly StatementEntry[],
): Record<StatementStatus | 'statements' | 'sentences' | 'rows' | 'explained', number> {
  const statuses = indexStatements(statements, entries).map(({ entries: held }) => statusOf(held));
  const count = (status: StatementStatus): number => statuses.filter((s) => s === status).length;
  const byStatus = Object.fromEntries(STATEMENT_STATUSES.map((status) => [status, count(status)])) as Record<
    StatementStatus,
    number
  >;
  return {
    statements: statements.length,
    sentences: statements.filter((s) => s.kind === 'sentence').length,
    rows: statements.filter((s) => s.kind === 'row').length,
    ...byStatus,
    explained: byStatus.unobservable + byStatus['not-shown'] + byStatus['no-claim'],
  };
}

/**
 * docs/reference/statements.md: every sentence and table row of the interface description, in its order, with
 * the documented constraints and `pacu check` rules that check it, or why nothing can.
 */
export function renderStatements(
  statements: readonly Statement[],
  entries: readonly StatementEntry[],
): string {
  const counts = statementCounts(statements, entries);
  const lines = [
    '# Statements: every sentence of the interface description, and what checks it',
    '',
    '<!-- Generated from spec/statements.yaml and the interface description by `npm run generate`. Do not edit. -->',
    '',
    'The reverse of [traceability.md](traceability.md): each sentence and table row of the interface description',
    '(headings, table header rows and lines that only introduce a list are not statements), with what checks it.',
    '`checked`: the documented constraints (`<operation> <path> <keyword>`, `*` for every operation; judged under',
    'every profile) and the `pacu check` rules that judge it. `unobservable`: why a client cannot see it.',
    '`not-shown`: the description says it is not shown; the `x-pacu-decision` that fills the gap is judged only',
    'under `--profile strict`. `no-claim`: it says nothing about the service. `spec/statements.test.ts` fails',
    'when a statement is in no entry of `spec/statements.yaml` or an entry names something that does not exist.',
    '',
    `${counts.statements} statements (${counts.sentences} sentences, ${counts.rows} table rows): ${counts.checked} checked, ${counts.explained} explained (${counts.unobservable} unobservable, ${counts['not-shown']} not shown, ${counts['no-claim']} no claim).`,
  ];
  let section: string | undefined;
  for (const { statement, entries: held } of indexStatements(statements, entries)) {
    if (statement.section !== section) {
      section = statement.section;
      lines.push(
        '',
        `## ${section}`,
        '',
        '| line | statement | status | checked by, or why not |',
        '|---|---|---|---|',
      );
    }
    lines.push(
      `| ${statement.line} | ${cell(statement.text)} | ${statusOf(held) ?? '(in no entry)'} | ${what(held)} |`,
    );
  }
  return [...lines, ''].join('\n');
}
