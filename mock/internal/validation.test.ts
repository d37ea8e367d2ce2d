import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadSpec, type OperationId } from '../../spec/index.ts';
import { loadPrismRequestCheck } from '../prism-adapter.ts';
import { precompiledIssues } from './validation.ts';

const spec = await loadSpec();
const prism = await loadPrismRequestCheck(spec);
const DECIMALS = 'must have at most two decimal places';

const values = fc.constantFrom<unknown>(
  null,
  0,
  -1,
  13.13,
  1.005,
  1e7,
  1000000,
  '',
  'x',
  'CHECKING',
  'WIRE',
  'ana.ruiz@example.com',
  'not-an-email',
  '021000021',
  '12',
  '0001234567890123456789',
  true,
  [],
  {},
  'r'.repeat(65),
);

/** The spec's example body with a few fields dropped, replaced or added. */
function mutatedBody(example: Record<string, unknown>) {
  const keys = [...Object.keys(example), 'extra_field'];
  return fc
    .array(fc.tuple(fc.constantFrom(...keys), fc.option(values, { nil: undefined })), { maxLength: 3 })
    .map((edits) => {
      const body: Record<string, unknown> = { ...example };
      for (const [key, value] of edits) {
        if (value === undefined) delete body[key];
        else body[key] = value;
      }
      return body;
    });
}

const jsonOperations: OperationId[] = ['usdTransfer', 'walletPayout', 'createAccount'];

describe('the precompiled validators agree with Prism validateInput', () => {
  it.each(jsonOperations)('%s: valid for one exactly when valid for the other', (operationId) => {
    const operation = spec.operation(operationId);
    const example = Object.values(operation.requestBody?.examples ?? {})[0] as Record<string, unknown>;
    let invalidSeen = 0;
    let validSeen = 0;
    fc.assert(
      fc.property(mutatedBody(example), (body) => {
        const request = {
          method: 'POST',
          path: '',
          query: new URLSearchParams(),
          headers: {},
          body: Buffer.alloc(0),
        };
        const ours = (precompiledIssues(operation, request, body) ?? []).filter(
          (issue) => issue.message !== DECIMALS,
        );
        const theirs = prism(operationId, {
          method: 'POST',
          path: operation.path,
          query: {},
          headers: {
            'content-type': 'application/json',
            'content-length': String(JSON.stringify(body).length),
          },
          body,
        });
        if (theirs.length > 0) invalidSeen++;
        else validSeen++;
        expect(
          ours.length === 0,
          `${JSON.stringify(body)}: ours ${JSON.stringify(ours)} prism ${theirs}`,
        ).toBe(theirs.length === 0);
      }),
      { seed: 20240614, numRuns: 300 },
    );
    // The generator must exercise both sides, or agreement says nothing.
    expect(invalidSeen).toBeGreaterThan(50);
    expect(validSeen).toBeGreaterThan(20);
  });
});
