import type { Report, RuleResult } from '../../suites/index.ts';
import { buildMatrix, countByCategory, matrixTitle, runParameters } from './matrix.ts';
import { replayCommand, reproduceNote } from './replay-command.ts';
import { failureGroups, skipGroups } from './report-groups.ts';

const escapeHtml = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const COLOURS = { passed: '#2e7d32', failed: '#c62828', skipped: '#9e9e9e' } as const;

/** A stacked bar per category (passed, failed, skipped), as inline SVG. */
function chart(report: Report): string {
  const rows = countByCategory(report);
  const most = Math.max(1, ...rows.map((row) => row.passed + row.failed + row.skipped));
  const bars = rows.map((row, index) => {
    const y = 10 + index * 28;
    let x = 110;
    const parts = (['passed', 'failed', 'skipped'] as const).map((status) => {
      const width = (row[status] / most) * 360;
      const rect = `<rect x="${x.toFixed(1)}" y="${y}" width="${width.toFixed(1)}" height="20" fill="${COLOURS[status]}"><title>${status}: ${row[status]}</title></rect>`;
      x += width;
      return rect;
    });
    return `<text x="0" y="${y + 15}" font-size="13">${row.category}</text>${parts.join('')}<text x="${(x + 6).toFixed(1)}" y="${y + 15}" font-size="12">${row.passed}/${row.failed}/${row.skipped}</text>`;
  });
  const legend = (['passed', 'failed', 'skipped'] as const)
    .map((status) => `<span class="swatch" style="background:${COLOURS[status]}"></span>${status}`)
    .join(' ');
  return `<svg xmlns="http://www.w3.org/2000/svg" role="img" aria-label="results by category" width="560" height="${20 + rows.length * 28}">${bars.join('')}</svg>
<p class="legend">${legend}. The numbers after each bar are passed/failed/skipped checks (rule × operation).</p>`;
}

/** Bodies past this many characters fold into a <details>, so one huge answer does not bury the rest. */
const FOLD_AT = 2000;

function body(text: string): string {
  const pre = `<pre>${escapeHtml(text)}</pre>`;
  return text.length > FOLD_AT
    ? `<details><summary>${text.length} characters</summary>${pre}</details>`
    : pre;
}

function headerTable(headers: Readonly<Record<string, string>>): string {
  const rows = Object.entries(headers)
    .map(([name, value]) => `<tr><th>${escapeHtml(name)}</th><td>${escapeHtml(value)}</td></tr>`)
    .join('');
  return rows ? `<table class="headers">${rows}</table>` : '';
}

/** Anchor of a failure, shared by its section and the matrix cell that links to it. */
const anchor = (rule: RuleResult): string => `failure-${rule.id}-${rule.operation}`.replace(/[^\w-]/g, '-');

function failureSection(rule: RuleResult, report: Report): string {
  const failure = rule.failure;
  if (!failure) return '';
  const response = failure.response
    ? `<p>Response: HTTP ${failure.response.status}</p>${headerTable(failure.response.headers)}${body(failure.response.body)}`
    : '';
  return `<section class="failure" id="${anchor(rule)}"><h4>${escapeHtml(rule.id)} on ${escapeHtml(rule.operation)}</h4><p>Request: ${escapeHtml(`${failure.request.method} ${failure.request.path}`)}</p>${failure.request.body !== undefined ? body(failure.request.body) : ''}${response}<p>Reproduce:</p><pre>${escapeHtml([failure.curl, replayCommand(rule, report)].filter(Boolean).join('\n'))}</pre></section>`;
}

/** Each cause once; the places it struck listed under it, the first one's evidence open. */
function failuresHtml(report: Report): string {
  return failureGroups(report)
    .map(({ reason, failures }) => {
      const places = failures.map(
        (rule) => `<a href="#${anchor(rule)}">${escapeHtml(rule.id)} on ${escapeHtml(rule.operation)}</a>`,
      );
      const [first, ...rest] = failures.map((rule) => failureSection(rule, report));
      const more =
        rest.length > 0
          ? `<details><summary>the other ${rest.length} failures with this cause</summary>${rest.join('\n')}</details>`
          : '';
      return `<article class="cause"><h3>${failures.length > 1 ? `${failures.length} failures, one cause: ` : ''}${escapeHtml(reason)}</h3>${failures.length > 1 ? `<p>${places.join(', ')}</p>` : ''}${first ?? ''}${more}</article>`;
    })
    .join('\n');
}

/** The cell's word: a cell where most rules were skipped says so rather than "passed". */
function cellText(rules: readonly RuleResult[], status: string): { text: string; className: string } {
  const skipped = rules.filter((rule) => rule.status === 'skipped').length;
  const passed = rules.filter((rule) => rule.status === 'passed').length;
  if (status === 'passed' && skipped > 0)
    return {
      text: `${passed} passed, ${skipped} skipped`,
      className: skipped >= passed ? 'partial' : 'passed',
    };
  return { text: status === 'none' ? '' : status, className: status };
}

/** One self-contained HTML file: the matrix, a chart by category, each failure with its reproduction. */
export function renderHtml(report: Report): string {
  const matrix = buildMatrix(report);
  const { passed, failed, skipped } = report.summary;
  const head = `<tr><th>${matrix.rowLabel}</th>${matrix.categories.map((c) => `<th>${c}</th>`).join('')}</tr>`;
  const rows = matrix.operations
    .map((operation) => {
      const cells = matrix.categories.map((category) => {
        const { status, rules } = matrix.cell(operation, category);
        const title = rules
          .map((rule) => `${rule.id}: ${rule.status}${rule.skipReason ? ` (${rule.skipReason})` : ''}`)
          .join('\n');
        const { text, className } = cellText(rules, status);
        const failedRule = rules.find((rule) => rule.status === 'failed' && rule.failure);
        const content = failedRule ? `<a href="#${anchor(failedRule)}">${text}</a>` : text;
        return `<td class="${className}" title="${escapeHtml(title)}">${content}</td>`;
      });
      return `<tr><th>${escapeHtml(operation)}</th>${cells.join('')}</tr>`;
    })
    .join('\n');
  const failures = failuresHtml(report);
  const skips = skipGroups(report)
    .map(
      (group) =>
        `<li><code>${escapeHtml(group.rule)}</code>: ${escapeHtml(group.reason)} (${group.operations.map(escapeHtml).join(', ')})</li>`,
    )
    .join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>pacu ${report.command}: ${escapeHtml(report.target)}</title>
<style>body{font-family:system-ui,sans-serif;margin:2rem;max-width:70rem}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.3rem .6rem;text-align:center}th{text-align:left}
td.passed{background:#e8f5e9}td.failed{background:#ffebee;font-weight:bold}td.skipped{background:#f5f5f5;color:#777}td.partial{background:#fff8e1;color:#8d6e00}td a{color:inherit}pre{background:#f6f8fa;padding:.6rem;overflow-x:auto;white-space:pre-wrap;overflow-wrap:anywhere}.failure{border-left:4px solid #c62828;padding-left:1rem;margin:1rem 0}.failure:target{background:#fff3f3}table.headers td,table.headers th{text-align:left;font-family:monospace;font-size:.85rem}.swatch{display:inline-block;width:.8rem;height:.8rem;margin:0 .25rem 0 .75rem;vertical-align:middle}</style></head>
<body><h1>pacu ${report.command}</h1>
<p>Target <code>${escapeHtml(report.target)}</code>${runParameters(report, (name, value) => `, ${name} <code>${value}</code>`)}, ${report.startedAt}: <strong>${passed} passed, ${failed} failed, ${skipped} skipped</strong>.</p>
${(report.notes ?? []).map((note) => `<p class="note"><strong>Note:</strong> ${escapeHtml(note)}</p>`).join('\n')}
<h2>${matrixTitle(report)}</h2><table class="matrix">${head}\n${rows}</table>
<p class="legend">A cell is failed when any of its rules failed (click it for the failure), passed when one passed and none failed, skipped when none ran; "2 passed, 3 skipped" when some were skipped (amber when most were).</p>
${skips ? `<h2>Skipped</h2><ul class="skips">${skips}</ul>` : ''}
<h2>Results by category</h2>${chart(report)}
<h2>Failures</h2>${failures ? `${failures}\n<p class="note">${escapeHtml(reproduceNote(report))}</p>` : '<p>None.</p>'}
</body></html>
`;
}
