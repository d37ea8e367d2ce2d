import { readdirSync, readFileSync } from 'node:fs';
import type { Decision } from '../../spec/index.ts';
import { renderDecisionsTable } from '../../spec/scripts/render-decisions-table.ts';

const RECORDS = new URL('../../docs/decisions/', import.meta.url);

/** Each record of docs/decisions/: its file and the title its first line gives (`# 042: …`). */
export function decisionRecords(): Array<{ file: string; number: string; title: string }> {
  return readdirSync(RECORDS)
    .filter((file) => /^\d{3}-.+\.md$/.test(file))
    .sort()
    .map((file) => {
      const heading = readFileSync(new URL(file, RECORDS), 'utf8').split('\n')[0] ?? '';
      const match = /^# (\d{3}): (.+)$/.exec(heading);
      if (!match) throw new Error(`docs/decisions/${file} does not open with "# NNN: title"`);
      return { file, number: match[1] ?? '', title: match[2] ?? '' };
    });
}

/** docs/reference/decisions.md: the decision records, and every x-pacu-decision of the spec. */
export function renderDecisions(decisions: readonly Decision[]): string {
  return `${[
    '# Decisions',
    '',
    '<!-- Generated from docs/decisions/ and the x-pacu-decision marks of spec/openapi.yaml by `npm run generate`. Do not edit. -->',
    '',
    '## Design decisions (docs/decisions/)',
    '',
    '| # | decision |',
    '|---|---|',
    ...decisionRecords().map(({ file, number, title }) => `| ${number} | [${title}](../decisions/${file}) |`),
    '',
    "## pacu's decisions where the description is silent (x-pacu-decision)",
    '',
    'Judged only under `--profile strict`; each names the place in `spec/openapi.yaml` it marks.',
    '',
    renderDecisionsTable(decisions),
  ].join('\n')}\n`;
}
