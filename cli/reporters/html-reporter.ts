import { learnedLines, type Report, type RuleResult } from '../../suites/index.ts';
import type { GateOptions } from './fault-split.ts';
import { HTML_SCRIPT, HTML_STYLE } from './html-assets.ts';
import {
  anchor,
  chart,
  duration,
  escapeHtml,
  failuresHtml,
  filterData,
  filterForm,
  profileOf,
  verdictBanner,
} from './html-parts.ts';
import { buildMatrix, matrixTitle } from './matrix.ts';
import { reproduceNote } from './replay-line.ts';
import { skipGroups } from './report-groups.ts';

const GLYPH = { passed: '✓', failed: '✗', skipped: '–' } as const;

/**
 * One rule inside a matrix cell: its status, its id (a link to its failure) and its time. The column
 * names the category, so the id is shown without it (the whole id is its tooltip): six columns of
 * whole ids were wider than a laptop's window.
 */
function cellItem(rule: RuleResult, category: string): string {
  const short = escapeHtml(rule.id.startsWith(`${category}.`) ? rule.id.slice(category.length + 1) : rule.id);
  const name = rule.failure
    ? `<a href="#${anchor(rule)}" title="${escapeHtml(rule.id)}">${short}</a>`
    : `<span title="${escapeHtml(rule.id)}">${short}</span>`;
  const why = rule.skipReason ? ` title="${escapeHtml(rule.skipReason)}"` : '';
  return `<li ${filterData(rule)}${why}><span class="s-${rule.status}">${GLYPH[rule.status]}</span> ${name} <span class="time">${duration(rule.durationMs)}</span></li>`;
}

/** The class of a cell: amber when most of its rules were skipped, else the status of the whole. */
function cellClass(rules: readonly RuleResult[], status: string): string {
  const skipped = rules.filter((rule) => rule.status === 'skipped').length;
  const passed = rules.filter((rule) => rule.status === 'passed').length;
  return status === 'passed' && skipped >= passed ? 'partial' : status;
}

function matrixHtml(report: Report): string {
  const matrix = buildMatrix(report);
  const head = `<tr><th>${matrix.rowLabel}</th>${matrix.categories.map((c) => `<th>${c}</th>`).join('')}</tr>`;
  const rows = matrix.operations.map((operation) => {
    const cells = matrix.categories.map((category) => {
      const { status, rules } = matrix.cell(operation, category);
      return `<td class="${cellClass(rules, status)}"><ul>${rules.map((rule) => cellItem(rule, category)).join('')}</ul></td>`;
    });
    return `<tr data-group><th>${escapeHtml(operation)}</th>${cells.join('')}</tr>`;
  });
  return `<table class="matrix">${head}\n${rows.join('\n')}</table>
<p class="legend">Each cell lists its rules: ✓ passed, ✗ failed (click for the failure), – skipped (hover for why). A cell is red when any rule failed, green when one passed and none failed, amber when most were skipped.</p>`;
}

/** Every check with its status, profile, runs and time: the table the filters count. */
function resultsTable(report: Report): string {
  const rows = report.rules.map((rule) => {
    const note = rule.failure?.reason ?? rule.skipReason ?? '';
    const id = rule.failure ? `<a href="#${anchor(rule)}">${escapeHtml(rule.id)}</a>` : escapeHtml(rule.id);
    return `<tr ${filterData(rule)}><td class="s-${rule.status}">${rule.status}</td><td>${id}</td><td>${escapeHtml(rule.operation)}</td><td>${rule.category}</td><td>${profileOf(rule)}</td><td>${rule.runs}</td><td>${duration(rule.durationMs)}</td><td>${escapeHtml(note)}</td></tr>`;
  });
  const slowest = [...report.rules].sort((a, b) => b.durationMs - a.durationMs).slice(0, 3);
  const slow = slowest.map(
    (rule) => `${escapeHtml(rule.id)} on ${escapeHtml(rule.operation)} (${duration(rule.durationMs)})`,
  );
  return `<p>Slowest: ${slow.join(', ')}.</p><table id="results"><thead><tr><th>status</th><th>rule</th><th>operation</th><th>category</th><th>profile</th><th>runs</th><th>time</th><th>reason</th></tr></thead><tbody>
${rows.join('\n')}</tbody></table>`;
}

/** What pacu learned about the provider, apart from the failures: information, never a verdict. */
function learnedHtml(report: Report): string {
  const lines = learnedLines(report.learned);
  if (lines.length === 0) return '';
  const items = lines.map((line) => `<li>${escapeHtml(line)}</li>`).join('');
  return `<section id="learned"><h2>Learned about the provider</h2><p>Where the description is silent; information, not failures.</p><ul>${items}</ul></section>`;
}

/** One self-contained HTML file: the verdict, filters, each failure, the matrix, every check. */
export function renderHtml(report: Report, gate: GateOptions = {}): string {
  const rowLabel = buildMatrix(report).rowLabel;
  const failures = failuresHtml(report);
  const skips = skipGroups(report)
    .map(
      (group) =>
        `<li><code>${escapeHtml(group.rule)}</code>: ${escapeHtml(group.reason)} (${group.operations.map(escapeHtml).join(', ')})</li>`,
    )
    .join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>pacu ${report.command}: ${escapeHtml(report.target)}</title><style>${HTML_STYLE}</style></head>
<body><h1>pacu ${report.command}</h1>
${verdictBanner(report, gate)}
${(report.notes ?? []).map((note) => `<p class="note"><strong>Note:</strong> ${escapeHtml(note)}</p>`).join('\n')}
${filterForm(report, rowLabel)}
${learnedHtml(report)}
${failures ? `<section id="failures" data-group><h2>Failures</h2>${failures}\n<p class="note">${escapeHtml(reproduceNote(report))}</p></section>` : '<section id="failures"><h2>Failures</h2><p>None.</p></section>'}
<details open><summary><h2 style="display:inline">${matrixTitle(report)}</h2></summary>${matrixHtml(report)}</details>
<details open><summary><h2 style="display:inline">All checks</h2></summary>${resultsTable(report)}</details>
${skips ? `<details><summary><h2 style="display:inline">Why checks were skipped</h2></summary><ul class="skips">${skips}</ul></details>` : ''}
<details><summary><h2 style="display:inline">Results by category</h2></summary>${chart(report)}</details>
<script>${HTML_SCRIPT}</script>
</body></html>
`;
}
