import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { loadSpec } from './index.ts';
import { renderApiTypes } from './scripts/render-api-types.ts';
import { renderDecisionsTable } from './scripts/render-decisions-table.ts';

describe('files generated from spec/openapi.yaml', () => {
  it('spec/generated/api-types.ts is what openapi-typescript makes of the spec now', async () => {
    const current = await readFile(new URL('./generated/api-types.ts', import.meta.url), 'utf8');
    expect(current === (await renderApiTypes()), 'stale: run npm run generate').toBe(true);
  });

  it('the reference decision table lists every x-pacu-decision of the spec', async () => {
    const spec = await loadSpec();
    const reference = await readFile(new URL('../docs/reference/decisions.md', import.meta.url), 'utf8');
    expect(reference.includes(renderDecisionsTable(spec.decisions)), 'stale: run npm run generate').toBe(
      true,
    );
    for (const decision of spec.decisions) expect(reference).toContain(`\`${decision.pointer}\``);
  });
});
