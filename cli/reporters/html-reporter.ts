import type { Report } from '../../suites/index.ts';
import { buildMatrix, countByCategory, failuresOf, runParameters } from './matrix.ts';
import { replayCommand, reproduceNote } from './replay-command.ts';

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
  return `<svg xmlns="http://www.w3.org/2000/svg" role="img" aria-label="results by category" width="560" height="${20 + rows.length * 28}">${bars.join('')}</svg>`;
}

/** One self-contained HTML file: the matrix, a chart by category, each failure with its reproduction. */
export function renderHtml(report: Report): string {
  const matrix = buildMatrix(report);
  const { passed, failed, skipped } = report.summary;
  const head = `<tr><th>${matrix.rowLabel}</th>${matrix.categories.map((c) => `<th>${c}</th>`).join('')}</tr>`;
  const body = matrix.operations
    .map((operation) => {
      const cells = matrix.categories.map((category) => {
        const { status, rules } = matrix.cell(operation, category);
        const title = rules
          .map((rule) => `${rule.id}: ${rule.status}${rule.skipReason ? ` (${rule.skipReason})` : ''}`)
          .join('\n');
        return `<td class="${status}" title="${escapeHtml(title)}">${status === 'none' ? '' : status}</td>`;
      });
      return `<tr><th>${escapeHtml(operation)}</th>${cells.join('')}</tr>`;
    })
    .join('\n');
  const failures = failuresOf(report)
    .map((rule) => {
      const failure = rule.failure;
      if (!failure) return '';
      const response = failure.response
        ? `<p>Response: HTTP ${failure.response.status}</p><pre>${escapeHtml(failure.response.body)}</pre>`
        : '';
      return `<section class="failure"><h3>${escapeHtml(rule.id)} on ${escapeHtml(rule.operation)}</h3><p>${escapeHtml(failure.reason)}</p><p>Request: ${escapeHtml(`${failure.request.method} ${failure.request.path}`)}</p>${failure.request.body !== undefined ? `<pre>${escapeHtml(failure.request.body)}</pre>` : ''}${response}<p>Reproduce:</p><pre>${escapeHtml([failure.curl, replayCommand(rule, report)].filter(Boolean).join('\n'))}</pre></section>`;
    })
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>pacu ${report.command}: ${escapeHtml(report.target)}</title>
<style>body{font-family:system-ui,sans-serif;margin:2rem;max-width:70rem}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.3rem .6rem;text-align:center}th{text-align:left}
td.passed{background:#e8f5e9}td.failed{background:#ffebee;font-weight:bold}td.skipped{background:#f5f5f5;color:#777}pre{background:#f6f8fa;padding:.6rem;overflow-x:auto;white-space:pre-wrap}.failure{border-left:4px solid #c62828;padding-left:1rem;margin:1rem 0}</style></head>
<body><h1>pacu ${report.command}</h1>
<p>Target <code>${escapeHtml(report.target)}</code>${runParameters(report, (name, value) => `, ${name} <code>${value}</code>`)}, ${report.startedAt}: <strong>${passed} passed, ${failed} failed, ${skipped} skipped</strong>.</p>
${(report.notes ?? []).map((note) => `<p class="note"><strong>Note:</strong> ${escapeHtml(note)}</p>`).join('\n')}
<h2>Operations × categories</h2><table>${head}\n${body}</table>
<h2>Results by category</h2>${chart(report)}
<h2>Failures</h2>${failures ? `${failures}\n<p class="note">${escapeHtml(reproduceNote(report))}</p>` : '<p>None.</p>'}
</body></html>
`;
}
