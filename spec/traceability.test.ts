import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { loadSpec } from './index.ts';
import {
  DESCRIPTION_FILE,
  DESCRIPTION_TEXT,
  SKIPPED_WITHOUT_DESCRIPTION,
} from './scripts/interface-description.ts';
import { renderTraceability } from './scripts/render-traceability.ts';
import { documentedConstraints } from './traceability.ts';

/** Table rows are quoted as written; elsewhere the description wraps nothing, so whitespace is kept too. */
const normalise = (text: string): string => text.replace(/[ \t]+/g, ' ');

describe('the documented view traces to the interface description (finding 6)', async () => {
  const spec = await loadSpec();
  const constraints = documentedConstraints(spec);

  it('docs/reference/traceability.md is what npm run generate makes of the spec now', async () => {
    const current = await readFile(new URL('../docs/reference/traceability.md', import.meta.url), 'utf8');
    expect(current === renderTraceability(spec), 'stale: run npm run generate').toBe(true);
  });

  it('every documented constraint names the sentence that states it (else it is an x-pacu-decision)', () => {
    expect(constraints.length).toBeGreaterThan(250);
    const unsourced = constraints
      .filter((constraint) => constraint.source === undefined)
      .map((c) => `${c.operation} ${c.path} ${c.keyword} ${JSON.stringify(c.value)}`);
    expect(unsourced).toEqual([]);
  });

  it('recipient_email has no format in the documented view: the description states none', () => {
    const formats = constraints.filter((c) => c.path.endsWith('.recipient_email') && c.keyword === 'format');
    expect(formats).toEqual([]);
  });

  describe.skipIf(DESCRIPTION_TEXT === undefined)(
    `each sentence is found verbatim in ${DESCRIPTION_FILE}${SKIPPED_WITHOUT_DESCRIPTION}`,
    () => {
      const description = normalise(DESCRIPTION_TEXT ?? '');
      const sources = [...new Set(constraints.flatMap((c) => (c.source ? [c.source] : [])))];
      it.each(sources)('%s', (source) => {
        expect(description.includes(normalise(source)), `not in the description: ${source}`).toBe(true);
      });
    },
  );
});
