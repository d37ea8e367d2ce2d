import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { boundText, edge, limitOf } from './bound-limit.ts';

const cents = fc.integer({ min: 1, max: 100_000_000 });

describe('limitOf', () => {
  it('finds the least amount taken, to the cent, between a refused one below and the central one', async () => {
    await fc.assert(
      fc.asyncProperty(cents, cents, cents, async (a, b, c) => {
        const [refused, least, central] = [a, b, c].sort((x, y) => x - y) as [number, number, number];
        fc.pre(refused < least);
        const takes = async (value: unknown) => Math.round((value as number) * 100) >= least;
        const limit = await limitOf(refused / 100, central / 100, takes);
        return limit.kind === 'below' && Math.round((limit.limit as number) * 100) === least;
      }),
    );
  });

  it('finds the most amount taken above the central one', async () => {
    await fc.assert(
      fc.asyncProperty(cents, cents, cents, async (a, b, c) => {
        const [central, most, refused] = [a, b, c].sort((x, y) => x - y) as [number, number, number];
        fc.pre(most < refused);
        const takes = async (value: unknown) => Math.round((value as number) * 100) <= most;
        const limit = await limitOf(refused / 100, central / 100, takes);
        return limit.kind === 'above' && Math.round((limit.limit as number) * 100) === most;
      }),
    );
  });

  it('finds a length taken, and names a refused text no length explains', async () => {
    const takes = async (value: unknown) => (value as string).length <= 22;
    expect(await limitOf('x'.repeat(60), 'Jane Doe', takes)).toEqual({ kind: 'longer', limit: 22 });
    const noDigits = async (value: unknown) => !/\d/.test(value as string);
    expect(await limitOf('abc1', 'Jane', noDigits)).toEqual({ kind: 'value', limit: 'abc1' });
  });
});

describe('edge and boundText', () => {
  it('give the value at a limit and just past it, and one line for the report', () => {
    expect(edge({ kind: 'below', limit: 1 }, 0.01, 1)).toBe(0.99);
    expect(edge({ kind: 'longer', limit: 3 }, 'abcdef', 1)).toBe('abcd');
    expect(
      boundText({
        operation: 'usdTransfer',
        field: 'amount',
        when: { transfer_type: 'WIRE' },
        kind: 'below',
        limit: 1,
      }),
    ).toBe('usdTransfer WIRE amount: refused below 1.00');
  });
});
