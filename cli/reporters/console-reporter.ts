import { createColors } from 'picocolors';
import { learnedLines, type Report, type RuleResult } from '../../suites/index.ts';
import { failedByFault, type GateOptions, isClientFinding } from './fault-split.ts';
import { buildMatrix, type CellStatus, failuresOf, hasSeed, runParameters } from './matrix.ts';
import { replayCommand, reproduceNote } from './replay-line.ts';

const MARK: Record<CellStatus, string> = { passed: 'pass', failed: 'FAIL', skipped: 'skip', none: '' };

/** How the console report is shown; the CLI decides from the terminal, NO_COLOR, FORCE_COLOR and flags. */
export interface ConsoleOptions extends GateOptions {
  /** ANSI colours. @default false */
  readonly colour?: boolean;
  /** Only the failures and the summary line: no matrix, no skip list. @default false */
  readonly quiet?: boolean;
}

type Colours = ReturnType<typeof createColors>;

function paintMark(status: CellStatus, text: string, c: Colours): string {
  if (status === 'passed') return c.green(text);
  if (status === 'failed') return c.bold(c.red(text));
  return status === 'skipped' ? c.dim(text) : text;
}

function indent(text: string, by = '      '): string {
  return text
    .split('\n')
    .map((line) => `${by}${line}`)
    .join('\n');
}

function renderFailure(rule: RuleResult, index: number, report: Report, c: Colours): string {
  const failure = rule.failure;
  if (!failure) return '';
  const lines = [
    isClientFinding(rule)
      ? c.yellow(
          `  ${index + 1}) ${c.bold(rule.id)} on ${rule.operation} (${rule.profile}): your client's own request`,
        )
      : c.red(`  ${index + 1}) ${c.bold(rule.id)} on ${rule.operation} (${rule.profile})`),
    `     why:      ${failure.reason.split('\n').join('\n               ')}`,
    `     request:  ${failure.request.method} ${failure.request.path}`,
  ];
  if (failure.request.body !== undefined) lines.push(`     body:     ${failure.request.body}`);
  if (failure.response) {
    lines.push(
      `     response: HTTP ${failure.response.status} ${failure.response.headers['content-type'] ?? ''}`.trimEnd(),
    );
    lines.push(indent(failure.response.body.slice(0, 500)));
  }
  lines.push(`     curl:     ${failure.curl}`);
  const replay = replayCommand(rule, report);
  if (replay) lines.push(`     replay:   ${replay}`);
  return lines.join('\n');
}

/**
 * The last line of every console report: the counts, the time, the seed. `failed` counts what
 * fails the run (the provider's); findings about the client's own requests are counted apart.
 */
export function summaryLine(report: Report, options: ConsoleOptions = {}): string {
  const c = createColors(options.colour === true);
  const { passed, skipped } = report.summary;
  const { failing, client } = failedByFault(report, options);
  const failed = failing.length;
  const theClient =
    client.length > 0
      ? `, ${c.yellow(`${client.length} about your client's own requests${options.clientFails ? ' (failing the run: --fail-on client)' : ''}`)}`
      : '';
  return `${c.green(`${passed} passed`)}, ${failed > 0 ? c.bold(c.red(`${failed} failed`)) : `${failed} failed`}${theClient}, ${c.dim(`${skipped} skipped`)} in ${(report.durationMs / 1000).toFixed(1)} s${hasSeed(report) ? ` (seed ${report.seed})` : ''}${trafficLine(report)}`;
}

/** What the run sent, when it says: requests, answers waited out (429/503), inconclusive cases. */
function trafficLine(report: Report): string {
  const traffic = report.traffic;
  if (!traffic) return '';
  const resent = traffic.retried > 0 ? `, ${traffic.retried} reads resent` : '';
  return `; ${traffic.sent} requests, ${traffic.throttled} throttled${resent}, ${traffic.inconclusive} inconclusive`;
}

/** The console report: the operations × categories matrix, the skip reasons, then each failure. */
export function renderConsole(report: Report, options: ConsoleOptions = {}): string {
  const c = createColors(options.colour === true);
  const matrix = buildMatrix(report);
  const width = Math.max(9, ...matrix.operations.map((operation) => operation.length));
  const columns = matrix.categories.map((category) => Math.max(category.length, 4));
  const out: string[] = [
    `pacu ${report.command} ${report.target}${runParameters(report, (name, value) => `  ${name} ${value}`)}`,
    // What could not run at all comes first, before any cell of the matrix looks green.
    ...(report.notes ?? []).map((note) => `note: ${note}`),
    '',
    `${matrix.rowLabel.padEnd(width)}  ${matrix.categories.map((category, i) => category.padEnd(columns[i] ?? 4)).join('  ')}`,
  ];
  for (const operation of matrix.operations) {
    const cells = matrix.categories.map((category, i) => {
      const { status } = matrix.cell(operation, category);
      return paintMark(status, MARK[status].padEnd(columns[i] ?? 4), c);
    });
    out.push(`${operation.padEnd(width)}  ${cells.join('  ')}`.trimEnd());
  }
  const skips = new Map<string, string[]>();
  for (const rule of report.rules.filter((r) => r.status === 'skipped' && r.skipReason)) {
    const key = `${rule.id}: ${rule.skipReason}`;
    skips.set(key, [...(skips.get(key) ?? []), rule.operation]);
  }
  if (skips.size > 0) {
    out.push('', 'skipped:');
    for (const [key, operations] of skips) out.push(`  ${key} (${operations.join(', ')})`);
  }
  // What pacu learned about the provider: information, in its own section, apart from failures.
  const learned = learnedLines(report.learned);
  if (learned.length > 0) out.push('', 'learned about the provider:', ...learned.map((line) => `  ${line}`));
  const failures = failuresOf(report);
  if (failures.length > 0)
    out.push(
      '',
      'failures:',
      ...failures.map((rule, index) => renderFailure(rule, index, report, c)),
      '',
      `  ${reproduceNote(report)}`,
    );
  const summary = summaryLine(report, options);
  if (options.quiet) {
    const failuresOnly = failures.map((rule, index) => renderFailure(rule, index, report, c));
    return `${[...failuresOnly, ...(failuresOnly.length > 0 ? [''] : []), summary].join('\n')}\n`;
  }
  out.push('', summary);
  return `${out.join('\n')}\n`;
}
