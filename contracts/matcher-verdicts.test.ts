import { describe, expect, it } from 'vitest';
import type { JSONSchema7 } from '../spec/index.ts';
import { matcherVerdict } from './matcher-verdicts.ts';
import type { PactMatcher } from './pact-file.ts';
import { schemaAt } from './schema-at-path.ts';
import { statusCodeVerdict } from './status-code-verdict.ts';

const verdict = (matcher: PactMatcher, schema: JSONSchema7, example?: unknown) => {
  const facts = schemaAt(schema, []);
  if (!facts) throw new Error('no facts');
  return matcherVerdict(matcher, { facts, examples: [], pactValues: example === undefined ? [] : [example] });
};

describe('matcherVerdict, for the matchers the differential test against Pact does not reach', () => {
  it('arrayContains and values want a list and a map', () => {
    expect(verdict({ match: 'arrayContains', variants: [] }, { type: 'array' }).compatible).toBe(true);
    expect(verdict({ match: 'arrayContains', variants: [] }, { type: 'string' })).toMatchObject({
      compatible: false,
      reason: 'the spec sends string here; an arrayContains matcher rejects "text"',
    });
    expect(verdict({ match: 'values' }, { type: 'object' }).compatible).toBe(true);
  });

  it('eachValue judges each value the spec defines with its rules', () => {
    const numbers: JSONSchema7 = { type: 'object', properties: { ACH: { type: 'number' } } };
    expect(verdict({ match: 'eachValue', rules: [{ match: 'integer' }] }, numbers)).toMatchObject({
      compatible: false,
      reason:
        'each value: the spec sends any number here, fractions included; an integer matcher rejects 1.5',
    });
  });

  it('a V2 matcher without `match` is a type or regex matcher, and an unknown type says so', () => {
    expect(verdict({ min: 1 } as unknown as PactMatcher, { type: 'array' }).compatible).toBe(true);
    expect(
      verdict({ regex: '^a$' } as unknown as PactMatcher, { type: 'string', enum: ['b'] }).compatible,
    ).toBe(false);
    expect(verdict({ match: 'soundex' }, { type: 'string' }).reason).toBe(
      'pacu knows no Pact matcher "soundex": Pact\'s verifier would not either',
    );
  });
});

describe('statusCodeVerdict', () => {
  it('accepts a class that holds every status the spec lists for that outcome, and names one it does not', () => {
    expect(statusCodeVerdict({ match: 'statusCode', status: 'success' }, 200, [200, 400]).compatible).toBe(
      true,
    );
    expect(
      statusCodeVerdict({ match: 'statusCode', status: 'clientError' }, 400, [200, 400, 401]).compatible,
    ).toBe(true);
    expect(statusCodeVerdict({ match: 'statusCode', status: [201] }, 200, [200, 400])).toEqual({
      compatible: false,
      reason: 'the spec answers 200 here; the statusCode matcher wants [201]',
      counterexample: 200,
    });
  });
});
