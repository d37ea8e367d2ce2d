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
    'The interface description leaves many things open (its "not shown" lines). pacu decides each one',
    'as a careful provider would and marks it in `spec/openapi.yaml` with `x-pacu-decision: <reason>`.',
    'A decided constraint sits in its own `allOf` member, parameter, response or operation, so the',
    'documented contract is the description with every decision node dropped. pacu always checks what',
    'the description states, and checks the decisions only under `--profile strict`.',
    '',
    "In short: every operation but the token endpoint needs a bearer token (usdTransfer's is documented,",
    'the rest are decisions); `card` for card reads and push-to-card, `us_account` for money movement,',
    'accounts and p2p, any scope for `/users`; 401 for a missing/bad/expired token, 403 for a missing',
    'scope; tokens live 3600 s; `/users` pages with `page` and `per_page`; amounts are positive whole',
    'cents up to 1,000,000.00; unknown ids get 400; a reused `reference` with a different body gets 409;',
    'webhooks follow Standard Webhooks signing. Each row below names the place in `spec/openapi.yaml` it',
    'marks.',
    '',
    renderDecisionsTable(decisions),
  ].join('\n')}\n`;
}
