/**
 * Every file `npm run generate` writes, with what it must hold now: the record types from
 * spec/openapi.yaml, and the reference in docs/reference/ (commands and flags, rules, decisions,
 * traceability, statements). test/generated-files.test.ts fails while any of them is stale.
 */
import { fileURLToPath } from 'node:url';
import { loadSpec, loadStatementIndex, parseStatements } from '../spec/index.ts';
import { DESCRIPTION_TEXT } from '../spec/scripts/interface-description.ts';
import { renderApiTypes } from '../spec/scripts/render-api-types.ts';
import { renderSpecConstants } from '../spec/scripts/render-spec-constants.ts';
import { renderStatements } from '../spec/scripts/render-statements.ts';
import { renderTraceability } from '../spec/scripts/render-traceability.ts';
import { renderCommands } from './reference/render-commands.ts';
import { renderDecisions } from './reference/render-decisions.ts';
import { renderReferenceIndex } from './reference/render-index.ts';
import { renderRules } from './reference/render-rules.ts';

export interface GeneratedFile {
  /** Relative to the repository root. */
  readonly path: string;
  readonly text: string;
}

const at = (path: string): string => fileURLToPath(new URL(`../${path}`, import.meta.url));

/** What each generated file must hold now. Without the interface description, statements.md is left out. */
export async function generatedFiles(): Promise<GeneratedFile[]> {
  const spec = await loadSpec();
  const entries = await loadStatementIndex();
  return [
    { path: 'spec/generated/api-types.ts', text: await renderApiTypes() },
    { path: 'spec/generated/spec-constants.ts', text: await renderSpecConstants() },
    { path: 'docs/reference/README.md', text: renderReferenceIndex() },
    { path: 'docs/reference/commands.md', text: await renderCommands() },
    { path: 'docs/reference/rules.md', text: renderRules(spec, entries) },
    { path: 'docs/reference/decisions.md', text: renderDecisions(spec.decisions) },
    { path: 'docs/reference/traceability.md', text: renderTraceability(spec) },
    ...(DESCRIPTION_TEXT === undefined
      ? []
      : [
          {
            path: 'docs/reference/statements.md',
            text: renderStatements(parseStatements(DESCRIPTION_TEXT), entries),
          },
        ]),
  ];
}

/** The file's path on disk. */
export const onDisk = (file: GeneratedFile): string => at(file.path);
