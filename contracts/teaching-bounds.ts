import { jsonRequest } from '../suites/index.ts';
import { CENTRAL_AMOUNT, PAYMENT_TYPES, type PaymentType, paymentOf } from './teaching-bodies.ts';
import type { Teacher } from './teaching-context.ts';

/** Amounts tried below the happy path's, lowest first: a bound sits on a round amount, most often. */
const BELOW: readonly number[] = [-1, 0, 0.01, 0.1, 0.5, 1, 2, 5, 10, 25, 50, 100];
/** And above it, highest last. */
const ABOVE: readonly number[] = [
  250, 1000, 5000, 10_000, 25_000, 50_000, 100_000, 250_000, 1_000_000, 10_000_000, 1e9,
];
const CENT = 0.01;

type Verdict = 'taken' | 'refused' | 'unknown';

const cents = (amount: number): number => Math.round(amount * 100) / 100;

/** One payment of `type` for `amount`: taken (200), refused (a 4xx that is not about the token), or unknown. */
async function probe(teacher: Teacher, type: PaymentType, amount: number): Promise<Verdict> {
  const { path, body } = paymentOf(teacher, type, amount);
  const teaches = `the amount bounds of ${type === 'wallet' ? 'wallet payouts' : `${type} transfers`}: ${amount}`;
  const answer = await teacher.send(teaches, jsonRequest('POST', path, body, await teacher.withToken()));
  if (answer.status === 200) {
    if (type !== 'wallet') teacher.found.transfers = [...(teacher.found.transfers ?? []), body];
    return 'taken';
  }
  return answer.status >= 400 && answer.status < 500 && ![401, 403, 408, 429].includes(answer.status)
    ? 'refused'
    : 'unknown';
}

/**
 * The edge between a refused amount and a taken one, by bisection over `ladder` (sorted so that
 * index 0 is the far end, refused, and the last index the taken end), then one cent past the
 * taken edge: a few requests find a bound at a round amount to the cent.
 */
async function edge(
  teacher: Teacher,
  type: PaymentType,
  ladder: readonly number[],
  step: number,
): Promise<void> {
  let refused = 0;
  let taken = ladder.length - 1;
  while (taken - refused > 1) {
    const middle = Math.floor((refused + taken) / 2);
    const verdict = await probe(teacher, type, ladder[middle] as number);
    if (verdict === 'unknown') return;
    if (verdict === 'taken') taken = middle;
    else refused = middle;
  }
  const past = cents((ladder[taken] as number) + step);
  if (Math.abs(past - (ladder[refused] as number)) > CENT / 2) await probe(teacher, type, past);
}

/**
 * The amount bounds of each payment type (ACH and WIRE transfers, wallet payouts), found by trying
 * the far ends first and bisecting toward the happy path's amount where they are refused.
 */
export async function teachBounds(teacher: Teacher): Promise<void> {
  if (!teacher.found.accountId) return;
  for (const type of PAYMENT_TYPES) {
    // ACH's happy amount was taken on the happy path; the others are tried first.
    if (type !== 'ACH' && (await probe(teacher, type, CENTRAL_AMOUNT)) !== 'taken') continue;
    const below = [...BELOW, CENTRAL_AMOUNT];
    if ((await probe(teacher, type, below[0] as number)) === 'refused')
      await edge(teacher, type, below, -CENT);
    const above = [...ABOVE].reverse().concat(CENTRAL_AMOUNT);
    if ((await probe(teacher, type, above[0] as number)) === 'refused')
      await edge(teacher, type, above, CENT);
  }
}
