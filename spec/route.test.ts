import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadSpec, OPERATION_IDS, pathFor, routeRequest } from './index.ts';

describe('routeRequest and pathFor: one router for mock, contracts and suites', async () => {
  const spec = await loadSpec();

  it('routes what pathFor builds back to the same operation and parameters (property)', () => {
    const segment = fc.string({ minLength: 1, maxLength: 12 });
    fc.assert(
      fc.property(fc.constantFrom(...OPERATION_IDS), segment, segment, (id, a, b) => {
        const operation = spec.operation(id);
        const names = [...operation.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1] ?? '');
        const params = Object.fromEntries(names.map((name, index) => [name, index === 0 ? a : b]));
        const found = routeRequest(spec, operation.method, `${pathFor(operation, params)}?x=1`);
        expect(found).toEqual({ kind: 'operation', operation, params });
      }),
      { seed: 3 },
    );
  });

  it.each([
    ['GET', '/cards/virtual/', { kind: 'not-found' }],
    ['GET', '/users/', { kind: 'not-found' }],
    ['GET', '/v3/users', { kind: 'not-found' }],
    ['POST', '/users', { kind: 'method-not-allowed', allowed: ['GET'] }],
    ['GET', '/cards/virtual/%E0%A4%A', { kind: 'bad-parameter', name: 'card_id' }],
  ])('%s %s', (method, path, expected) => {
    expect(routeRequest(spec, method, path)).toEqual(expected);
  });

  it('pathFor refuses a missing parameter', () => {
    expect(() => pathFor(spec.operation('getVirtualCard'), {})).toThrow(/card_id/);
  });
});
