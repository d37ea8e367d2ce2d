import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileSchema, documentedSchema, loadSpec } from '../../spec/index.ts';
import { invalidBodies } from './invalid-bodies.ts';
import { arbitraryFromSchema } from './schema-arbitrary.ts';
import { wordListsOf } from './vocabulary.ts';

const spec = await loadSpec();
const lists = wordListsOf(spec);
const schema = documentedSchema(spec.schema('UsdTransferRequest'));
const [base] = fc.sample(arbitraryFromSchema(spec.schema('UsdTransferRequest')), { seed: 3, numRuns: 1 }) as [
  Record<string, unknown>,
];

describe('invalidBodies', () => {
  it('only yields bodies the schema refuses, each once', () => {
    const check = compileSchema(schema);
    const bodies = invalidBodies(schema, base, lists);
    expect(bodies.length).toBeGreaterThan(10);
    for (const { body, mutation } of bodies) expect(check(body).length, mutation).toBeGreaterThan(0);
    expect(new Set(bodies.map(({ body }) => JSON.stringify(body))).size).toBe(bodies.length);
  });

  it('sends the words of the API a careless provider takes for an enum value: RTP, another enum, other cases', () => {
    const transferTypes = invalidBodies(schema, base, lists)
      .filter(({ mutation }) => mutation.startsWith('transfer_type'))
      .map(({ body }) => body.transfer_type);
    expect(transferTypes).toEqual(
      expect.arrayContaining(['RTP', 'CHECKING', 'ach', 'ACH ', 'wire', 'WIRE ', 42]),
    );
  });

  it('sends a number as a string and digits as a number', () => {
    const bodies = invalidBodies(schema, base, lists);
    expect(
      bodies.find(({ mutation }) => mutation.startsWith('amount') && mutation.includes('as a string'))?.body
        .amount,
    ).toBe(String(base.amount));
    expect(
      typeof bodies.find(({ mutation }) => mutation === 'account_number its digits as a number')?.body
        .account_number,
    ).toBe('number');
  });

  it('finds nothing to break where the description documents no constraint', () => {
    expect(invalidBodies({ type: 'object', properties: { note: {} } }, {})).toEqual([]);
  });
});
