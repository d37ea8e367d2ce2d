import type { Spec } from '../model.ts';
import { documentedConstraints } from '../traceability.ts';

const cell = (text: string): string => text.replace(/\|/g, '\\|').replace(/\s+/g, ' ');
const code = (text: string): string => `\`${text.replace(/`/g, "'")}\``;

/**
 * docs/reference/traceability.md: every constraint of the documented view beside the sentence of the interface
 * description that states it. What no sentence states is an x-pacu-decision and not listed here.
 */
export function renderTraceability(spec: Spec): string {
  const rows = documentedConstraints(spec);
  return [
    '# Traceability: the documented view, sentence by sentence',
    '',
    '<!-- Generated from spec/openapi.yaml by `npm run generate`. Do not edit. -->',
    '',
    'Every constraint `pacu check` judges under `--profile documented` (the spec with every `x-pacu-decision`',
    'node dropped), with the sentence of the interface description that states it (`x-pacu-source` in',
    '`spec/openapi.yaml`). `spec/traceability.test.ts` fails when a constraint has no sentence or its sentence',
    'is not found verbatim in the description; `spec/keyword-stated.test.ts` fails when the sentence names the',
    'field but does not state the keyword (a type row does not make a field required). Anything the',
    'description does not state is a decision, listed in [decisions.md](decisions.md) and checked only under `--profile strict`.',
    'The reverse, sentence by sentence, is [statements.md](statements.md).',
    '',
    `${rows.length} constraints in ${spec.operations.length} operations.`,
    '',
    '| operation | JSON path | keyword | value | stated by |',
    '|---|---|---|---|---|',
    ...rows.map(
      (row) =>
        `| ${row.operation} | ${code(row.path)} | ${row.keyword} | ${code(cell(JSON.stringify(row.value)))} | ${cell(row.source ?? '(none: a decision or a gap)')} |`,
    ),
    '',
  ].join('\n');
}
