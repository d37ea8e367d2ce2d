import type { RoutedExchange } from '../../../http/index.ts';
import type { AmountRange } from '../behaviour.ts';
import { paymentKey } from '../learned-limits.ts';
import type { ReportDraft } from './learned-report.ts';
import { entryOf } from './samples.ts';

/** Refusals on both sides of the taken amounts needed before a bound is learned there. */
const REFUSALS_FOR_A_BOUND = 2;
/** Statuses that refuse for the token, a reused reference or the pace, not for the amount. */
const NOT_ABOUT_THE_AMOUNT = new Set([401, 403, 408, 409, 429]);

interface Tried {
  readonly amount: number;
  readonly taken: boolean;
  readonly entry: number;
}

/** The body without what a bound probe changes: what makes two payments the same but for the amount. */
function sameButAmount(body: Record<string, unknown>): string {
  const { amount: _amount, reference: _reference, ...rest } = body;
  return JSON.stringify(Object.entries(rest).sort(([a], [b]) => a.localeCompare(b)));
}

const money = (amount: number): string => amount.toFixed(2);

/**
 * The amounts a sandbox took and refused per payment type, from payments that differ only in their
 * amount (the teaching session's bisections): a bound is learned on a side when at least two
 * refusals lie beyond every taken amount there; a refusal among taken amounts is another reason,
 * and the type is left free. Nothing learned for one type holds for another.
 */
export function learnBounds(
  exchanges: readonly RoutedExchange[],
  withFullToken: (exchange: RoutedExchange) => boolean,
  decided: Decided,
  report: ReportDraft,
): Record<string, AmountRange> {
  const groups = new Map<string, Tried[]>();
  const references = new Set<unknown>();
  for (const exchange of exchanges) {
    const operation = exchange.operation?.id;
    const body = exchange.requestJson as Record<string, unknown> | undefined;
    const status = exchange.entry.response.status;
    if (!operation || !body || typeof body !== 'object' || typeof body.amount !== 'number') continue;
    // A reference used before is a replay, and a request without a token of every scope, or not
    // labelled JSON, may be refused for that: neither says anything of the amount.
    const again = body.reference !== undefined && references.has(body.reference);
    references.add(body.reference);
    const type = exchange.entry.request.headers.find(({ name }) => name.toLowerCase() === 'content-type');
    if (again || !withFullToken(exchange) || !/json/i.test(type?.value ?? '')) continue;
    const key = paymentKey(operation, body);
    const taken = status === 200;
    if (!key || !(taken || (status >= 400 && status < 500 && !NOT_ABOUT_THE_AMOUNT.has(status)))) continue;
    const group = `${key}\u0000${sameButAmount(body)}`;
    groups.set(group, [
      ...(groups.get(group) ?? []),
      { amount: body.amount, taken, entry: entryOf(exchange) },
    ]);
  }
  const byType = new Map<string, Tried[]>();
  for (const [group, tried] of groups) {
    // Only a group with a taken payment says the others were refused for their amount.
    if (!tried.some((one) => one.taken)) continue;
    const key = group.split('\u0000')[0] as string;
    byType.set(key, [...(byType.get(key) ?? []), ...tried]);
  }
  const ranges: Record<string, AmountRange> = {};
  for (const [key, tried] of byType) {
    const range = rangeOf(key, tried, decided, report);
    if (range) ranges[key] = range;
  }
  return ranges;
}

/** pacu's own bounds of an amount (the spec's decision), beyond which a taken amount shows no end. */
export interface Decided {
  readonly above: number;
  readonly max: number;
}

function rangeOf(
  key: string,
  tried: readonly Tried[],
  decided: Decided,
  report: ReportDraft,
): AmountRange | undefined {
  const [operation, type] = key.split(':') as [string, string];
  const about = `the amounts ${operation === 'walletPayout' ? 'wallet payouts' : `${type} transfers`} take`;
  const taken = tried.filter((one) => one.taken).map((one) => one.amount);
  const takenFrom = Math.min(...taken);
  const takenTo = Math.max(...taken);
  const refused = tried.filter((one) => !one.taken);
  const inside = refused.filter((one) => one.amount >= takenFrom && one.amount <= takenTo);
  const entries = tried.map((one) => one.entry);
  if (inside.length > 0) {
    report.kept(
      `bounds.${key}`,
      about,
      undefined,
      `left free: ${inside.map((one) => money(one.amount)).join(', ')} refused between amounts taken (${money(takenFrom)} to ${money(takenTo)}), so not for the amount`,
      entries,
    );
    return undefined;
  }
  const below = refused.filter((one) => one.amount < takenFrom).map((one) => one.amount);
  const above = refused.filter((one) => one.amount > takenTo).map((one) => one.amount);
  // Taken beyond pacu's own bound with nothing refused further: no end on that side at all.
  const open = {
    low: below.length === 0 && takenFrom <= decided.above,
    high: above.length === 0 && takenTo > decided.max,
  };
  const range: AmountRange = {
    ...(open.low ? {} : { takenFrom }),
    ...(open.high ? {} : { takenTo }),
    ...(below.length >= REFUSALS_FOR_A_BOUND ? { refusedAtOrBelow: Math.max(...below) } : {}),
    ...(above.length >= REFUSALS_FOR_A_BOUND ? { refusedFrom: Math.min(...above) } : {}),
  };
  const sides = [
    range.refusedAtOrBelow !== undefined
      ? `refused at ${money(range.refusedAtOrBelow)} and below (${below.length} refused), taken from ${money(takenFrom)}`
      : below.length > 0
        ? `one refusal below ${money(takenFrom)} is no bound: taken from ${money(takenFrom)}, lower left free`
        : `taken from ${money(takenFrom)}, nothing lower refused${open.low ? ': no lower end' : ''}`,
    range.refusedFrom !== undefined
      ? `taken up to ${money(takenTo)}, refused at ${money(range.refusedFrom)} and above (${above.length} refused)`
      : above.length > 0
        ? `one refusal above ${money(takenTo)} is no bound: higher left free`
        : `taken up to ${money(takenTo)}, nothing higher refused${open.high ? ': no upper end' : ''}`,
  ];
  report.learned(`bounds.${key}`, about, range, `${type}: ${sides.join('; ')}`, entries);
  return range;
}
