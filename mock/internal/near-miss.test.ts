import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadSpec } from '../../spec/index.ts';
import { nearMiss } from './near-miss.ts';

const spec = await loadSpec();

describe('near-miss hints for requests that matched no operation', () => {
  it('names the operation a one-letter typo in any path meant', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...spec.operations),
        fc.nat(),
        fc.constantFrom('x', 'q', 'z'),
        (operation, at, letter) => {
          const path = operation.path.replace(/\{[^}]+\}/g, 'id_123');
          // A typo in the literal part: one inside a parameter is still a valid path.
          const literal = operation.path.includes('{') ? operation.path.indexOf('{') - 1 : path.length;
          const index = 1 + (at % (literal - 1));
          const typo = `${path.slice(0, index)}${letter}${path.slice(index)}`;
          const hint = nearMiss(spec, operation.method.toUpperCase(), `/v3${typo}`) ?? '';
          return hint.startsWith('did you mean ') && hint.includes(`/v3${path}?`);
        },
      ),
      { seed: 12 },
    );
  });

  it('says when the base path or a slash is the mistake, and stays silent when nothing is near', () => {
    expect(nearMiss(spec, 'GET', '/users')).toBe('did you mean GET /v3/users? (paths start with /v3)');
    expect(nearMiss(spec, 'GET', '/v3/users/')).toBe('did you mean GET /v3/users? (no trailing slash)');
    expect(nearMiss(spec, 'POST', '/v3/payment/usd/direct')).toBe(
      'did you mean POST /v3/payments/usd/direct?',
    );
    expect(nearMiss(spec, 'GET', '/v3/something/entirely/different/here')).toBeUndefined();
  });
});
