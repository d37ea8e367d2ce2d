import { describe, expect, it } from 'vitest';
import { loadSpec, routeRequest } from '../spec/index.ts';
import { createRouteMemory } from './route-memory.ts';

describe('createRouteMemory', () => {
  it('routes as routeRequest does, before and after it forgot what it remembered', async () => {
    const spec = await loadSpec();
    const route = createRouteMemory(spec);
    const asked: Array<[string, string]> = [
      ['GET', '/users'],
      ['POST', '/users'],
      ['POST', '/payments/usd/direct'],
      ['GET', '/cards/virtual/card_1'],
      ['GET', '/cards/virtual/%E0%A4%A'],
      ['GET', '/nowhere'],
    ];
    // More distinct paths than it keeps, then the same ones again.
    for (let index = 0; index < 1500; index++) asked.push(['GET', `/cards/virtual/card_${index}`]);
    for (const [method, path] of [...asked, ...asked])
      expect(route(method, path)).toEqual(routeRequest(spec, method, path));
  });
});
