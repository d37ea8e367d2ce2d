import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PASS, type Verdict } from '../rules/rule.ts';
import { checkProperty } from './property.ts';

const request = { method: 'GET', path: '/', headers: {} } as const;
const fails = (input: number[]): Verdict =>
  input.reduce((sum, n) => sum + n, 0) > 300 ? { ok: false, reason: 'too big', request } : PASS;

/** The first input fast-check runs when asked to replay `path` with `seed`. */
async function replayed(seed: number, path: string): Promise<unknown> {
  let first: unknown;
  await fc.check(
    fc.property(fc.array(fc.nat(200)), (input) => {
      first ??= input;
      return true;
    }),
    { seed, path, numRuns: 1, endOnFailure: true },
  );
  return first;
}

describe('checkProperty tells each case its replayable path', () => {
  it('every case, generated or shrunk, replays from its path to the same input', async () => {
    for (const seed of [1, 42, 424242]) {
      const seen: Array<{ path: string; input: unknown }> = [];
      const outcome = await checkProperty(
        { seed, numRuns: 40 },
        fc.array(fc.nat(200)),
        async (input) => fails(input),
        (path, input) => seen.push({ path, input }),
      );
      expect(outcome.status).toBe('failed');
      expect(seen.some((c) => c.path.includes(':'))).toBe(true);
      // The last failing case's path is the one fast-check itself reports.
      if (outcome.status === 'failed') expect(seen.map((c) => c.path)).toContain(outcome.path);
      for (const { path, input } of seen.filter((_, index) => index % 7 === 0 || index === seen.length - 1))
        expect(await replayed(seed, path), `seed ${seed} path ${path}`).toEqual(input);
    }
  });

  it('a replay judges exactly the case at its path', async () => {
    const paths: string[] = [];
    const outcome = await checkProperty(
      { seed: 7, numRuns: 40, path: '5' },
      fc.array(fc.nat(200)),
      async () => PASS,
      (path) => paths.push(path),
    );
    expect(paths).toEqual(['5']);
    expect(outcome).toEqual({ status: 'passed', runs: 1 });
  });
});
