import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ShardedMap } from './sharded-map.ts';

type Op = { kind: 'set'; key: string; value: number } | { kind: 'delete'; key: string } | { kind: 'clear' };

describe('ShardedMap', () => {
  it('answers get, has, size and iteration as a Map given the same operations', () => {
    const key = fc.oneof(fc.string({ maxLength: 6 }), fc.constantFrom('a', 'b', 'REF-1', 'txn_00ff'));
    const op: fc.Arbitrary<Op> = fc.oneof(
      { weight: 6, arbitrary: fc.record({ kind: fc.constant('set' as const), key, value: fc.integer() }) },
      { weight: 3, arbitrary: fc.record({ kind: fc.constant('delete' as const), key }) },
      { weight: 1, arbitrary: fc.constant({ kind: 'clear' as const }) },
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 200 }), fc.array(key, { maxLength: 20 }), (ops, probes) => {
        const map = new Map<string, number>();
        const sharded = new ShardedMap<number>();
        for (const step of ops) {
          if (step.kind === 'set') {
            map.set(step.key, step.value);
            sharded.set(step.key, step.value);
          } else if (step.kind === 'delete') expect(sharded.delete(step.key)).toBe(map.delete(step.key));
          else {
            map.clear();
            sharded.clear();
          }
        }
        expect(sharded.size).toBe(map.size);
        for (const probe of probes) {
          expect(sharded.get(probe)).toBe(map.get(probe));
          expect(sharded.has(probe)).toBe(map.has(probe));
        }
        const sorted = <T>(items: Iterable<T>): T[] => [...items].sort();
        expect(sorted([...sharded].map(([k, v]) => `${k}=${v}`))).toEqual(
          sorted([...map].map(([k, v]) => `${k}=${v}`)),
        );
        expect(sorted(sharded.keys())).toEqual(sorted(map.keys()));
        expect(sorted(sharded.values())).toEqual(sorted(map.values()));
      }),
    );
  });

  it('spreads references over its shards from the first', () => {
    const sharded = new ShardedMap<number>();
    for (let index = 0; index < 25_600; index++) sharded.set(`REF-${index}`, index);
    const sizes = (sharded as unknown as { shards: Array<Map<string, number> | undefined> }).shards.map(
      (shard) => shard?.size ?? 0,
    );
    // 400 per shard on average; none holds less than half or more than twice that.
    expect(Math.min(...sizes)).toBeGreaterThan(200);
    expect(Math.max(...sizes)).toBeLessThan(800);
  });
});
