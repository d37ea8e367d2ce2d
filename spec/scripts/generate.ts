/**
 * Regenerates what is derived from spec/openapi.yaml and checked in: the record types
 * (spec/generated/api-types.ts), the README's decision table, docs/traceability.md and, from
 * spec/statements.yaml and the interface description in ../shared, docs/statements.md.
 * With `--check` it writes nothing and exits 1 when either is out of date.
 */
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { parseStatements } from '../description-statements.ts';
import { loadSpec } from '../load-spec.ts';
import { loadStatementIndex } from '../statement-index.ts';
import { renderApiTypes } from './render-api-types.ts';
import { renderDecisionsTable, replaceDecisionsTable } from './render-decisions-table.ts';
import { renderStatements } from './render-statements.ts';
import { renderTraceability } from './render-traceability.ts';

const typesFile = fileURLToPath(new URL('../generated/api-types.ts', import.meta.url));
const readmeFile = fileURLToPath(new URL('../../README.md', import.meta.url));
const traceabilityFile = fileURLToPath(new URL('../../docs/traceability.md', import.meta.url));
const statementsFile = fileURLToPath(new URL('../../docs/statements.md', import.meta.url));
// The interface description sits in ../shared beside the clone; read, never retyped.
const descriptionFile = fileURLToPath(
  new URL('../../../shared/seeds/000_1f34ae346204a62c.txt', import.meta.url),
);

const spec = await loadSpec();
const outputs: Array<[string, string]> = [
  [typesFile, await renderApiTypes()],
  [traceabilityFile, renderTraceability(spec)],
  [
    readmeFile,
    replaceDecisionsTable(await readFile(readmeFile, 'utf8'), renderDecisionsTable(spec.decisions)),
  ],
];
if (existsSync(descriptionFile)) {
  const statements = parseStatements(await readFile(descriptionFile, 'utf8'));
  outputs.push([statementsFile, renderStatements(statements, await loadStatementIndex())]);
} else {
  console.warn(`${descriptionFile} is absent: docs/statements.md is left as it is`);
}
const check = process.argv.includes('--check');
let stale = 0;
for (const [file, fresh] of outputs) {
  const current = await readFile(file, 'utf8').catch(() => '');
  if (current === fresh) continue;
  if (check) {
    console.error(`${file} is out of date: run npm run generate`);
    stale += 1;
  } else {
    await writeFile(file, fresh);
    console.log(`wrote ${file}`);
  }
}
process.exitCode = stale > 0 ? 1 : 0;
