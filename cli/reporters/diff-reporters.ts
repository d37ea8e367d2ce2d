import { createColors } from 'picocolors';
import type { Change, DiffReport, OperationRef, Severity } from '../../diff/index.ts';
import type { ConsoleOptions } from './console-reporter.ts';
import { escapeXml } from './junit-reporter.ts';

const ORDER: readonly Severity[] = ['breaking', 'risky', 'safe'];
const MARK: Record<Severity, string> = { breaking: '❌', risky: '⚠️', safe: '✅' };

function operationLabel(operation: OperationRef | undefined): string {
  if (!operation) return 'description';
  if (operation.kind === 'webhook') return `webhook ${operation.event}`;
  return `${operation.id ? `${operation.id} ` : ''}(${operation.method} ${operation.path})`;
}

function verdict(report: DiffReport): string {
  const { breaking, risky, safe, used, gating } = report.summary;
  const counts = `${breaking} breaking, ${risky} risky, ${safe} safe${used !== undefined ? `, ${used} breaking used by a known consumer` : ''}`;
  const gate = `--fail-on ${report.options.failOn}, --profile ${report.options.profile}`;
  return report.failed
    ? `FAILED: ${counts} (${gating} at or above the gate: ${gate})`
    : `passed: ${counts} (none at or above the gate: ${gate})`;
}

const usedBy = (change: Change): string | undefined =>
  change.usedBy === undefined
    ? undefined
    : change.usedBy.length === 0
      ? 'no known consumer uses it'
      : change.usedBy.map((use) => `${use.consumer}: ${use.detail}`).join('; ');

/** The description's words a verdict rests on, quoted. */
const cited = (change: Change): string => (change.cites ?? []).map((words) => `"${words}"`).join(' and ');

/** One block per change, breaking first; `--quiet` keeps only what fails the gate and the summary. */
export function renderDiffConsole(report: DiffReport, options: ConsoleOptions = {}): string {
  const c = createColors(options.colour === true);
  const paint: Record<Severity, (text: string) => string> = {
    breaking: (t) => c.bold(c.red(t)),
    risky: c.yellow,
    safe: c.green,
  };
  const lines = [`pacu diff ${report.old} → ${report.new}`, ''];
  for (const severity of ORDER) {
    for (const origin of ['description', 'decision'] as const) {
      const changes = report.changes.filter(
        (change) => change.severity === severity && change.origin === origin,
      );
      if (changes.length === 0 || (options.quiet && severity === 'safe')) continue;
      lines.push(
        paint[severity](
          `${severity}${origin === 'decision' ? " (pacu's decisions)" : ''}: ${changes.length}`,
        ),
      );
      for (const change of changes) {
        lines.push(
          `  ${paint[severity](severity.padEnd(8))} ${c.bold(change.check)}  ${operationLabel(change.operation)}${change.status ? ` ${change.status}` : ''}`,
        );
        lines.push(`           ${change.message}`);
        if (change.cites) lines.push(`           the description: ${cited(change)}`);
        lines.push(c.dim(`           at ${change.path}${change.field ? ` (${change.field})` : ''}`));
        const users = usedBy(change);
        if (users) lines.push(`           used by: ${users}`);
      }
      lines.push('');
    }
  }
  if (report.changes.length === 0) lines.push('no changes', '');
  lines.push(report.failed ? c.bold(c.red(verdict(report))) : c.green(verdict(report)), '');
  return lines.join('\n');
}

/** The {@link DiffReport} as is: `old`, `new`, `options`, `summary`, `failed` and every change. */
export function renderDiffJson(report: DiffReport): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}

const cell = (text: string): string => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** Markdown for a pull-request comment: the verdict, a table per severity, safe changes folded away. */
export function renderDiffMarkdown(report: DiffReport): string {
  const out = [
    `## pacu diff: ${report.failed ? '❌ failed' : '✅ passed'}`,
    '',
    `\`${report.old}\` → \`${report.new}\`: ${verdict(report).replace(/^(FAILED|passed): /, '')}.`,
  ];
  if (report.changes.length === 0) out.push('', 'No changes.');
  for (const severity of ORDER) {
    const changes = report.changes.filter((change) => change.severity === severity);
    if (changes.length === 0) continue;
    const known = report.options.consumersKnown && severity !== 'safe';
    const table = [
      `| | change | operation | what it means | origin${known ? ' | used by' : ''} |`,
      `| --- | --- | --- | --- | ---${known ? ' | ---' : ''} |`,
      ...changes.map(
        (change) =>
          `| ${MARK[severity]} | \`${change.check}\` | ${cell(operationLabel(change.operation))}${change.status ? ` ${change.status}` : ''} | ${cell(change.message)}${change.cites ? ` (the description: ${cell(cited(change))})` : ''} | ${change.origin === 'decision' ? "pacu's decision" : 'description'}${known ? ` | ${cell(usedBy(change) ?? '')}` : ''} |`,
      ),
    ];
    out.push('');
    if (severity === 'safe')
      out.push(`<details><summary>${changes.length} safe</summary>`, '', ...table, '', '</details>');
    else out.push(`### ${MARK[severity]} ${changes.length} ${severity}`, '', ...table);
  }
  return `${out.join('\n')}\n`;
}

/** JUnit XML: one testcase per change; a change that fails the gate is a failure, the others pass. */
export function renderDiffJunit(report: DiffReport, fails: (change: Change) => boolean): string {
  const cases = report.changes.map((change) => {
    const open = `    <testcase classname="${escapeXml(change.check)}" name="${escapeXml(`${change.severity}: ${change.message}`)}"`;
    if (!fails(change)) return `${open}/>`;
    const body = [
      `at ${change.path}`,
      ...(change.cites ? [`the description: ${cited(change)}`] : []),
      ...(usedBy(change) ? [`used by: ${usedBy(change)}`] : []),
    ].join('\n');
    return `${open}>\n      <failure message="${escapeXml(change.message)}" type="${change.severity}">${escapeXml(body)}</failure>\n    </testcase>`;
  });
  const failures = report.changes.filter(fails).length;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="pacu diff" tests="${report.changes.length}" failures="${failures}" errors="0">`,
    `  <testsuite name="${escapeXml(`pacu diff ${report.old} → ${report.new}`)}" tests="${report.changes.length}" failures="${failures}" errors="0" skipped="0">`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
