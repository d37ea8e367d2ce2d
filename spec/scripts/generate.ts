/**
 * Regenerates what is derived from spec/openapi.yaml and checked in: the record types
 * (spec/generated/api-types.ts), the README's decision table and docs/traceability.md.
 * With `--check` it writes nothing and exits 1 when either is out of date.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { loadSpec } from '../load-spec.ts';
import { renderApiTypes } from './render-api-types.ts';
import { renderDecisionsTable, replaceDecisionsTable } from './render-decisions-table.ts';
import { renderTraceability } from './render-traceability.ts';

const typesFile = fileURLToPath(new URL('../generated/api-types.ts', import.meta.url));
const readmeFile = fileURLToPath(new URL('../../README.md', import.meta.url));
const traceabilityFile = fileURLToPath(new URL('../../docs/traceability.md', import.meta.url));

const spec = await loadSpec();
const outputs: Array<[string, string]> = [
  [typesFile, await renderApiTypes()],
  [traceabilityFile, renderTraceability(spec)],
  [
    readmeFile,
    replaceDecisionsTable(await readFile(readmeFile, 'utf8'), renderDecisionsTable(spec.decisions)),
  ],
];
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
