import type { Report } from '../../suites/index.ts';
import { failedByFault, type GateOptions, isClientFinding } from './fault-split.ts';
import { buildMatrix, type CellStatus, failuresOf, runParameters } from './matrix.ts';
import { replayCommand, reproduceNote } from './replay-line.ts';
import { skipGroups } from './report-groups.ts';

const MARK: Record<CellStatus, string> = { passed: '✅', failed: '❌', skipped: '⏭️', none: '' };
const cell = (text: string): string => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** Markdown that fits a CI job summary: the matrix, then each failure with its curl and replay id. */
export function renderMarkdown(report: Report, gate: GateOptions = {}): string {
  const matrix = buildMatrix(report);
  const { passed, skipped } = report.summary;
  const { failing, client } = failedByFault(report, gate);
  const failed = failing.length;
  const theClient = client.length > 0 ? `, ${client.length} about your client's own requests` : '';
  const out = [
    `## pacu ${report.command}: ${failed === 0 ? 'passed' : `${failed} failed`}${theClient}`,
    '',
    ...(report.notes ?? []).map((note) => `> **Note:** ${cell(note)}\n`),
    `Target \`${report.target}\`${runParameters(report, (name, value) => `, ${name} \`${value}\``)}: ${passed} passed, ${failed} failed${theClient}, ${skipped} skipped.`,
    '',
    `| ${matrix.rowLabel} | ${matrix.categories.join(' | ')} |`,
    `| --- | ${matrix.categories.map(() => ':---:').join(' | ')} |`,
    ...matrix.operations.map(
      (operation) =>
        `| \`${operation}\` | ${matrix.categories.map((category) => MARK[matrix.cell(operation, category).status]).join(' | ')} |`,
    ),
    '',
    `${MARK.passed} a rule passed and none failed · ${MARK.failed} a rule failed · ${MARK.skipped} every rule skipped · blank: no rule for that pair`,
  ];
  const skips = skipGroups(report);
  if (skips.length > 0)
    out.push(
      '',
      '<details><summary>Skipped, and why</summary>',
      '',
      ...skips.map((group) => `- \`${group.rule}\`: ${cell(group.reason)} (${group.operations.join(', ')})`),
      '',
      '</details>',
    );
  for (const rule of failuresOf(report)) {
    const failure = rule.failure;
    if (!failure) continue;
    out.push(
      '',
      isClientFinding(rule)
        ? `### ⚠️ \`${rule.id}\` on \`${rule.operation}\`: your client's own request`
        : `### ❌ \`${rule.id}\` on \`${rule.operation}\``,
      '',
      cell(failure.reason),
      '',
      ...(failure.response
        ? [
            `Response: HTTP ${failure.response.status}`,
            '',
            '```json',
            failure.response.body.slice(0, 1000),
            '```',
            '',
          ]
        : []),
      '```sh',
      failure.curl,
      ...[replayCommand(rule, report)].filter((line): line is string => line !== undefined),
      '```',
    );
  }
  if (failuresOf(report).length > 0) out.push('', `_${reproduceNote(report)}_`);
  return `${out.join('\n')}\n`;
}
