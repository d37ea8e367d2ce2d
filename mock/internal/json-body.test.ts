import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonDepth } from './json-body.ts';

function depthOf(value: unknown): number {
  if (value === null || typeof value !== 'object') return 0;
  const children = Object.values(value as object);
  return 1 + Math.max(0, ...children.map(depthOf));
}

describe('jsonDepth', () => {
  it('agrees with the depth of the parsed value on any JSON', () => {
    fc.assert(
      fc.property(
        fc.jsonValue({ maxDepth: 12 }),
        (value) => jsonDepth(JSON.stringify(value)) === depthOf(value),
      ),
      {
        seed: 3,
      },
    );
  });

  it('ignores brackets inside strings, escaped quotes included', () => {
    expect(jsonDepth('{"a":"[[[{{\\"[["}')).toBe(1);
    expect(jsonDepth('[[[]]]')).toBe(3);
  });
});
