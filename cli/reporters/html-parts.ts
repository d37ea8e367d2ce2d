import type { Report, RuleResult } from '../../suites/index.ts';
import { clientFindings, failedByFault, type GateOptions, isClientFinding } from './fault-split.ts';
import { countByCategory, runParameters } from './matrix.ts';
import { replayCommand } from './replay-line.ts';
import { failureGroups } from './report-groups.ts';

export const escapeHtml = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Anchor of a failure, shared by its section and every link that leads to it. */
export const anchor = (rule: RuleResult): string =>
  `failure-${rule.id}-${rule.operation}`.replace(/[^\w-]/g, '-');

/** The profile a result is judged under: a failure of pacu's own decision says `strict`. */
export const profileOf = (rule: RuleResult): string => rule.failure?.profile ?? rule.profile;

export const duration = (ms: number): string =>
  ms >= 1000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms)} ms`;

/** The attributes the page's filters read. */
export function filterData(rule: RuleResult): string {
  const search = [rule.id, rule.operation, rule.category, rule.failure?.reason ?? rule.skipReason ?? '']
    .join(' ')
    .toLowerCase();
  return `data-status="${rule.status}" data-category="${rule.category}" data-operation="${escapeHtml(rule.operation)}" data-profile="${profileOf(rule)}" data-search="${escapeHtml(search)}"`;
}

/**
 * The verdict a person reads first: failed, passed, or nothing checked (never a pass). Only what
 * fails the run makes it FAILED: the provider's failures, and findings about the client's own
 * requests (a proxy's) only under `--fail-on client`; else they are said as the client's, so the
 * banner agrees with the exit code.
 */
export function verdictBanner(report: Report, gate: GateOptions = {}): string {
  const { passed, skipped } = report.summary;
  const { provider, client, failing } = failedByFault(report, gate);
  const total = passed + provider.length + client.length + skipped;
  const theClient = client.length > 0 ? ` · your client: ${clientFindings(client.length)}` : '';
  const strict = provider.filter((rule) => profileOf(rule) === 'strict').length;
  const split =
    provider.length > 0
      ? ` (${provider.length - strict} against the description, ${strict} against pacu's own decisions)`
      : '';
  const [kind, word, line] =
    failing.length > 0
      ? [
          'failed',
          'FAILED',
          gate.clientFails && client.length > 0
            ? `${failing.length} of ${total} checks failed: the provider ${provider.length}${split}, your client ${client.length} about its own requests (--fail-on client makes them fail the run)`
            : `${provider.length} of ${total} checks failed${split}${theClient}`,
        ]
      : client.length > 0
        ? [
            'passed client',
            'PASSED',
            `the provider: 0 failed of ${total} checks${theClient} (they fail the run only with --fail-on client)`,
          ]
        : passed > 0
          ? ['passed', 'PASSED', `${passed} of ${total} checks passed`]
          : ['empty', 'NOTHING CHECKED', 'every check was skipped: this is not a pass'];
  const failed = provider.length;
  return `<div class="verdict ${kind}" role="status"><strong>${word}</strong>${line}
<p class="facts">${passed} passed, ${failed} failed${client.length > 0 ? `, ${client.length} the client's` : ''}, ${skipped} skipped in ${duration(report.durationMs)} · target <code>${escapeHtml(report.target)}</code>${runParameters(report, (name, value) => ` · ${name} <code>${value}</code>`)} · ${escapeHtml(report.startedAt)}</p></div>`;
}

const options = (values: readonly string[]): string =>
  values.map((value) => `<option value="${escapeHtml(value)}">${escapeHtml(value)}</option>`).join('');

/** The filter bar: status boxes, category, operation (or event) and profile menus, a search box. */
export function filterForm(report: Report, rowLabel: string): string {
  const distinct = (pick: (rule: RuleResult) => string): string[] => [...new Set(report.rules.map(pick))];
  const boxes = (['failed', 'passed', 'skipped'] as const)
    .map(
      (status) => `<label><input type="checkbox" name="status" value="${status}" checked> ${status}</label>`,
    )
    .join(' ');
  return `<form id="filters" aria-label="filter the checks"><fieldset><legend>status</legend>${boxes}</fieldset>
<label>category <select name="category"><option value="">all</option>${options(distinct((r) => r.category))}</select></label>
<label>${rowLabel} <select name="operation"><option value="">all</option>${options(distinct((r) => r.operation))}</select></label>
<label>profile <select name="profile"><option value="">all</option>${options(distinct(profileOf))}</select></label>
<input type="search" name="q" placeholder="search rules, reasons" aria-label="search"><button type="reset">show all</button>
<span id="shown"></span></form>`;
}

/** Bodies past this many characters fold, so one huge answer does not bury the rest. */
const FOLD_AT = 2000;

export function body(text: string): string {
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

/** One failure, headed by its rule and operation; the reason, the exchange and how to reproduce it below. */
function failureSection(rule: RuleResult, report: Report, sameCause: readonly RuleResult[]): string {
  const failure = rule.failure;
  if (!failure) return '';
  const profile = profileOf(rule);
  const others = sameCause.filter((other) => other !== rule);
  const shared =
    others.length > 0
      ? `<p>Same cause as ${others.map((o) => `<a href="#${anchor(o)}">${escapeHtml(o.id)} on ${escapeHtml(o.operation)}</a>`).join(', ')}.</p>`
      : '';
  const response = failure.response
    ? `<p>Response: HTTP ${failure.response.status}</p>${headerTable(failure.response.headers)}${body(failure.response.body)}`
    : '<p>No response was received.</p>';
  const reproduce = [failure.curl, replayCommand(rule, report)].filter(Boolean).join('\n');
  const whose = isClientFinding(rule)
    ? ' <span class="badge fault-client">your client\'s own request</span>'
    : '';
  return `<details class="failure${whose ? ' client' : ''}" open id="${anchor(rule)}" ${filterData(rule)}><summary><strong>${escapeHtml(rule.id)}</strong> on <code>${escapeHtml(rule.operation)}</code>${whose} <span class="badge profile-${profile}">${profile}</span> <span class="time">${duration(rule.durationMs)}, ${rule.runs} runs</span></summary>
<p class="reason">${escapeHtml(failure.reason)}</p>${shared}
<p>Request: <code>${escapeHtml(`${failure.request.method} ${failure.request.path}`)}</code></p>${headerTable(failure.request.headers)}${failure.request.body !== undefined ? body(failure.request.body) : ''}${response}<p>Reproduce:</p><pre>${escapeHtml(reproduce)}</pre></details>`;
}

/** Every failure, in report order, each pointing at the others that share its cause. */
export function failuresHtml(report: Report): string {
  const causeOf = new Map<RuleResult, readonly RuleResult[]>();
  for (const group of failureGroups(report))
    for (const rule of group.failures) causeOf.set(rule, group.failures);
  return [...causeOf].map(([rule, same]) => failureSection(rule, report, same)).join('\n');
}

const COLOURS = { passed: '#2e7d32', failed: '#c62828', skipped: '#9e9e9e' } as const;

/** A stacked bar per category (passed, failed, skipped), as inline SVG. */
export function chart(report: Report): string {
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
