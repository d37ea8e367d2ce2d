import type { Report } from '../../suites/index.ts';
import { buildMatrix, type CellStatus, failuresOf } from './matrix.ts';
import { REPRODUCE_NOTE, replayCommand } from './replay-command.ts';

const MARK: Record<CellStatus, string> = { passed: '✅', failed: '❌', skipped: '⏭️', none: '' };
const cell = (text: string): string => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** Markdown that fits a CI job summary: the matrix, then each failure with its curl and replay id. */
export function renderMarkdown(report: Report): string {
  const matrix = buildMatrix(report);
  const { passed, failed, skipped } = report.summary;
  const out = [
    `## pacu ${report.command}: ${failed === 0 ? 'passed' : `${failed} failed`}`,
    '',
    ...(report.notes ?? []).map((note) => `> **Note:** ${cell(note)}\n`),
    `Target \`${report.target}\`, profile \`${report.profile}\`, seed \`${report.seed}\`: ${passed} passed, ${failed} failed, ${skipped} skipped.`,
    '',
    `| operation | ${matrix.categories.join(' | ')} |`,
    `| --- | ${matrix.categories.map(() => ':---:').join(' | ')} |`,
    ...matrix.operations.map(
      (operation) =>
        `| \`${operation}\` | ${matrix.categories.map((category) => MARK[matrix.cell(operation, category).status]).join(' | ')} |`,
    ),
  ];
  for (const rule of failuresOf(report)) {
    const failure = rule.failure;
    if (!failure) continue;
    out.push(
      '',
      `### ❌ \`${rule.id}\` on \`${rule.operation}\``,
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
  if (failuresOf(report).length > 0) out.push('', `_${REPRODUCE_NOTE}_`);
  return `${out.join('\n')}\n`;
}
