import { getHttpOperationsFromSpec } from '@stoplight/prism-http';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SPEC_FILE, loadSpec } from '../spec/index.ts';
import { readOperations } from './prism-adapter.ts';

describe('Prism adapter', () => {
  it("reads the same operations as Prism's getHttpOperationsFromSpec, without loading its generator", async () => {
    const ours = await readOperations((await loadSpec()).document);
    const prisms = await getHttpOperationsFromSpec(DEFAULT_SPEC_FILE);
    expect(ours.map((operation) => operation.iid)).toHaveLength(9);
    expect(JSON.parse(JSON.stringify(ours))).toEqual(JSON.parse(JSON.stringify(prisms)));
  });
});
