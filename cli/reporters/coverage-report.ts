import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Coverage } from '../../http/index.ts';
import { ConfigError } from '../../spec/index.ts';

type CoverageFormat = 'json' | 'markdown' | 'html';

const FORMATS: Record<string, CoverageFormat> = {
  '.json': 'json',
  '.md': 'markdown',
  '.markdown': 'markdown',
  '.html': 'html',
  '.htm': 'html',
};

/** The format a `--coverage-report FILE` asks for by its extension; a usage error otherwise. */
export function coverageFormat(file: string): CoverageFormat {
  const format = FORMATS[path.extname(file).toLowerCase()];
  if (!format)
    throw new ConfigError(
      `pacu: --coverage-report ${file}: name it .json, .md or .html (the extension picks the format)`,
    );
  return format;
}

const escapeHtml = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const statusCell = (statuses: Record<string, number>): string =>
  Object.entries(statuses)
    .map(([status, count]) => `${status}×${count}`)
    .join(', ') || 'none';

/** Whose traffic: the mock's (it also sees its lifecycles, webhooks and faults), or the proxy's. */
export type CoverageSurface = 'mock' | 'proxy';

/**
 * What the proxy can tell: the operations and statuses that crossed it. Lifecycles, webhooks and
 * faults are the mock's own doing, so their rows (all zeros through a proxy) are left out.
 */
function trafficOnly(coverage: Coverage): Pick<Coverage, 'since' | 'operations' | 'neverSeen'> {
  return {
    since: coverage.since,
    operations: coverage.operations,
    neverSeen: coverage.operations.flatMap((row) =>
      row.missing.map((status) => `${row.operationId} never answered ${status}`),
    ),
  };
}

function proxyMarkdown(coverage: Coverage): string {
  const { since, operations, neverSeen } = trafficOnly(coverage);
  return [
    '## pacu proxy coverage',
    '',
    `Since ${since}: the operations and statuses the traffic through the proxy reached. Never seen:`,
    '',
    ...(neverSeen.length > 0
      ? neverSeen.map((line) => `- ${line}`)
      : ['- nothing: every status was reached']),
    '',
    '| operation | answered | never answered |',
    '| --- | --- | --- |',
    ...operations.map(
      (row) => `| \`${row.operationId}\` | ${statusCell(row.statuses)} | ${row.missing.join(', ') || '—'} |`,
    ),
    '',
  ].join('\n');
}

function markdown(coverage: Coverage): string {
  return [
    '## pacu mock coverage',
    '',
    `Since ${coverage.since}. What the suite never saw:`,
    '',
    ...(coverage.neverSeen.length > 0
      ? coverage.neverSeen.map((line) => `- ${line}`)
      : ['- nothing: every listed case was reached']),
    '',
    '| operation | answered | never answered |',
    '| --- | --- | --- |',
    ...coverage.operations.map(
      (row) => `| \`${row.operationId}\` | ${statusCell(row.statuses)} | ${row.missing.join(', ') || '—'} |`,
    ),
    '',
    '| transition | reached |',
    '| --- | ---: |',
    ...coverage.transitions.map((row) => `| ${row.kind}: ${row.from} → ${row.to} | ${row.count} |`),
    '',
    '| webhook event | emitted | acknowledged |',
    '| --- | ---: | ---: |',
    ...coverage.events.map((row) => `| \`${row.type}\` | ${row.emitted} | ${row.delivered} |`),
    '',
    '| fault fired | times |',
    '| --- | ---: |',
    ...(coverage.faults.length > 0
      ? coverage.faults.map((row) => `| ${row.kind} on \`${row.operation}\` | ${row.fired} |`)
      : ['| none | 0 |']),
    '',
  ].join('\n');
}

function html(coverage: Coverage, surface: CoverageSurface): string {
  const table = (head: string[], rows: string[][]): string =>
    `<table><tr>${head.map((cell) => `<th>${escapeHtml(cell)}</th>`).join('')}</tr>${rows
      .map((row) => `<tr>${row.map((cell) => `<td>${escapeHtml(cell)}</td>`).join('')}</tr>`)
      .join('')}</table>`;
  const neverSeen = surface === 'proxy' ? trafficOnly(coverage).neverSeen : coverage.neverSeen;
  const operations = `<h2>Operations</h2>${table(
    ['operation', 'answered', 'never answered'],
    coverage.operations.map((row) => [
      row.operationId,
      statusCell(row.statuses),
      row.missing.join(', ') || '—',
    ]),
  )}`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>pacu ${surface} coverage</title>
<style>body{font-family:system-ui,sans-serif;margin:2rem;max-width:70rem}table{border-collapse:collapse;margin:1rem 0}td,th{border:1px solid #ccc;padding:.3rem .6rem;text-align:left}li{color:#c62828}</style></head>
<body><h1>pacu ${surface} coverage</h1><p>Since ${escapeHtml(coverage.since)}${surface === 'proxy' ? ': the operations and statuses the traffic through the proxy reached' : ''}.</p>
<h2>Never seen</h2><ul>${neverSeen.map((line) => `<li>${escapeHtml(line)}</li>`).join('') || '<p>Nothing: every listed case was reached.</p>'}</ul>
${surface === 'proxy' ? `${operations}\n</body></html>\n` : mockRows(coverage, operations, table)}`;
}

/** The mock's own rows after the operations: lifecycle transitions, webhook events, faults fired. */
function mockRows(
  coverage: Coverage,
  operations: string,
  table: (head: string[], rows: string[][]) => string,
): string {
  return `${operations}
<h2>Lifecycle transitions</h2>${table(
    ['transition', 'reached'],
    coverage.transitions.map((row) => [`${row.kind}: ${row.from} → ${row.to}`, String(row.count)]),
  )}
<h2>Webhook events</h2>${table(
    ['event', 'emitted', 'acknowledged'],
    coverage.events.map((row) => [row.type, String(row.emitted), String(row.delivered)]),
  )}
<h2>Faults fired</h2>${table(
    ['fault', 'times'],
    coverage.faults.map((row) => [`${row.kind} on ${row.operation}`, String(row.fired)]),
  )}
</body></html>
`;
}

/**
 * Write the coverage in the format the file's extension names (json, markdown or html), as the
 * `surface` that saw the traffic can tell it: the proxy's has only its operations and statuses.
 */
export async function writeCoverageReport(
  file: string,
  coverage: Coverage,
  surface: CoverageSurface = 'mock',
): Promise<void> {
  const format = coverageFormat(file);
  const proxy = surface === 'proxy';
  const text =
    format === 'json'
      ? `${JSON.stringify(proxy ? { surface, ...trafficOnly(coverage) } : coverage, null, 2)}\n`
      : format === 'markdown'
        ? proxy
          ? proxyMarkdown(coverage)
          : markdown(coverage)
        : html(coverage, surface);
  try {
    await mkdir(path.dirname(path.resolve(file)), { recursive: true });
    await writeFile(file, text, 'utf8');
  } catch (cause) {
    throw new ConfigError(`pacu: cannot write the coverage report to ${file}: ${(cause as Error).message}`, {
      cause,
    });
  }
}
