import type { LearnedBound } from '../report/report.ts';

// The limit of a bound learned by hidden-bounds.ts: halved down to a cent or a character.

/** The text of a bound: `usdTransfer WIRE amount: refused below 1.00`. */
export function boundText(bound: Omit<LearnedBound, 'text'>): string {
  const when = Object.values(bound.when).join(' ');
  const limit = bound.limit;
  const how = {
    below: () => `refused below ${(limit as number).toFixed(2)}`,
    above: () => `refused above ${(limit as number).toFixed(2)}`,
    longer: () => `refused longer than ${limit} characters`,
    shorter: () => `refused shorter than ${limit} characters`,
    value: () => `refused ${JSON.stringify(limit)}`,
  }[bound.kind]();
  return `${bound.operation}${when ? ` ${when}` : ''} ${bound.field}: ${how}`;
}

/**
 * The boundary between a `refused` and an `accepted` whole number, halved until they are neighbours
 * (geometric steps while they are far apart): the value taken nearest the refused one.
 */
async function boundary(
  refused: number,
  accepted: number,
  takes: (value: number) => Promise<boolean>,
  geometric: boolean,
): Promise<number> {
  let [no, yes] = [refused, accepted];
  while (Math.abs(yes - no) > 1) {
    const wide = geometric && no > 0 && yes > 0 && Math.max(no, yes) / Math.min(no, yes) > 4;
    const mid = wide ? Math.round(Math.sqrt(no * yes)) : Math.round((no + yes) / 2);
    if (mid === no || mid === yes) break;
    if (await takes(mid)) yes = mid;
    else no = mid;
  }
  return yes;
}

/** The value at a bound's limit (`by` 0: the last one taken) or just past it (`by` 1: the first refused). */
export function edge(limit: Pick<LearnedBound, 'kind' | 'limit'>, refused: unknown, by: 0 | 1): unknown {
  const at = limit.limit as number;
  const text = typeof refused === 'string' ? refused : '';
  switch (limit.kind) {
    case 'below':
      return Math.round(at * 100 - by) / 100;
    case 'above':
      return Math.round(at * 100 + by) / 100;
    case 'longer':
      return text.slice(0, at + by);
    case 'shorter':
      return text.slice(0, Math.max(0, at - by));
    case 'value':
      return refused;
  }
}

/** The limit of a bound refused at `refused` and taken at `central`. */
export async function limitOf(
  refused: unknown,
  central: unknown,
  takes: (value: unknown) => Promise<boolean>,
): Promise<Pick<LearnedBound, 'kind' | 'limit'>> {
  if (typeof refused === 'number' && typeof central === 'number') {
    const cents = await boundary(
      Math.round(refused * 100),
      Math.round(central * 100),
      (value) => takes(value / 100),
      true,
    );
    return { kind: refused < central ? 'below' : 'above', limit: cents / 100 };
  }
  if (typeof refused === 'string' && typeof central === 'string' && refused.length !== central.length) {
    // The refused text cut or filled out to the central length: taken, it is the length that was refused.
    const longer = refused.length > central.length;
    const text = (length: number) =>
      (longer ? refused : refused + central.slice(refused.length)).slice(0, length);
    if (await takes(text(central.length))) {
      const length = await boundary(refused.length, central.length, (n) => takes(text(n)), false);
      return { kind: longer ? 'longer' : 'shorter', limit: length };
    }
  }
  return { kind: 'value', limit: typeof refused === 'string' ? refused : JSON.stringify(refused) };
}
