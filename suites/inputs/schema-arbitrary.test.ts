import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileSchema, type JSONSchema7, loadSpec } from '../../spec/index.ts';
import { arbitraryFromSchema } from './schema-arbitrary.ts';

const spec = await loadSpec();

describe('arbitraryFromSchema', () => {
  it.each(['UsdTransferRequest', 'WalletPayoutRequest', 'AccountCreationRequest'])(
    'generates %s values the spec as written accepts',
    (name) => {
      const schema = spec.schema(name);
      const check = compileSchema(schema);
      fc.assert(
        fc.property(arbitraryFromSchema(schema), (value) => check(value).length === 0),
        { seed: 7 },
      );
    },
  );

  it('builds the arbitrary of a string schema once, its allOf merged or not', () => {
    // fast-check reads a pattern, and tries its characters on awkward strings, as the arbitrary is
    // made: not once per run and rule.
    const pattern: JSONSchema7 = { type: 'string', allOf: [{ pattern: '^\\s*[^,\\s]+$' }] };
    expect(arbitraryFromSchema(pattern)).toBe(arbitraryFromSchema(pattern));
  });

  it('keeps amounts positive and in whole cents', () => {
    fc.assert(
      fc.property(arbitraryFromSchema(spec.schema('Amount')), (amount) => {
        expect(amount).toBeGreaterThan(0);
        expect(Math.round((amount as number) * 100) / 100).toBe(amount);
      }),
      { seed: 7 },
    );
  });

  it('uses an override at its JSON pointer', () => {
    const [value] = fc.sample(
      arbitraryFromSchema(spec.schema('AccountCreationRequest'), { '/user_id': fc.constant('u1') }),
      {
        seed: 1,
        numRuns: 1,
      },
    );
    expect(value).toMatchObject({ user_id: 'u1' });
  });
});
