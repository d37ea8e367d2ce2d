import type { RoutedExchange } from '../../../http/index.ts';
import type { Scenario } from '../../types.ts';
import type { Behaviour, LearnedStep } from '../behaviour.ts';
import { fingerprint } from '../handlers/payments.ts';
import type { ReportDraft } from './learned-report.ts';
import { dataOf, entryOf } from './samples.ts';

/** Transfers that must agree before their lifecycle is the mock's. */
const SAMPLES_FOR_A_RULE = 2;
/** A read this long after the transfer was made is a follow, not the happy path's replay. */
const FOLLOWED_AFTER_MS = 1000;
const FINAL = new Set(['successful', 'failed']);

interface Followed {
  readonly type: string;
  readonly steps: LearnedStep[];
  /** Seconds from the transfer to its last read. */
  readonly seen: number;
  readonly entries: number[];
}

const timeOf = (exchange: RoutedExchange): number => Date.parse(exchange.entry.startedDateTime);
const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
};

/** Each transfer read again (an exact replay) a second or more after it was made, with its status changes. */
function followedTransfers(exchanges: readonly RoutedExchange[]): Followed[] {
  const reads = new Map<string, RoutedExchange[]>();
  for (const exchange of exchanges) {
    const body = exchange.requestJson as Record<string, unknown> | undefined;
    if (exchange.operation?.id !== 'usdTransfer' || exchange.entry.response.status !== 200 || !body) continue;
    const key = `${String(body.reference)}\u0000${fingerprint({ ...body })}`;
    reads.set(key, [...(reads.get(key) ?? []), exchange]);
  }
  const followed: Followed[] = [];
  for (const [key, [made, ...later]] of reads) {
    if (
      !made ||
      later.length === 0 ||
      timeOf(later[later.length - 1] as RoutedExchange) - timeOf(made) < FOLLOWED_AFTER_MS
    )
      continue;
    const start = timeOf(made);
    const steps: LearnedStep[] = [];
    let status = dataOf(made)?.transaction_status;
    let lastSame = start;
    for (const read of later) {
      const now = dataOf(read)?.transaction_status;
      // The change happened between the last read of the old status and the first of the new.
      if (typeof now === 'string' && now !== status) {
        steps.push({ after: Math.round((lastSame + timeOf(read)) / 2 - start) / 1000, status: now });
        status = now;
      }
      lastSame = timeOf(read);
    }
    const type = String((made.requestJson as Record<string, unknown>).transfer_type ?? key);
    followed.push({ type, steps, seen: (lastSame - start) / 1000, entries: [made, ...later].map(entryOf) });
  }
  return followed;
}

/**
 * The lifecycles `pacu record --follow` saw, per transfer type: the statuses transfers moved through
 * and when (the median of two or more that agree), or "stays processing" when none moved while
 * followed. Without a follow, or when they disagree, pacu's scenario holds and the report says so.
 */
export function learnLifecycles(
  exchanges: readonly RoutedExchange[],
  report: ReportDraft,
): Record<string, LearnedStep[]> {
  const followed = followedTransfers(exchanges);
  const learned: Record<string, LearnedStep[]> = {};
  const about = (type: string) => `the lifecycle of ${type} transfers (statuses and when)`;
  for (const type of ['ACH', 'WIRE']) {
    const mine = followed.filter((one) => one.type === type);
    const entries = mine.flatMap((one) => one.entries);
    const shapes = new Set(mine.map((one) => one.steps.map((step) => step.status).join('>')));
    const [shape = ''] = shapes;
    const statuses = shape === '' ? [] : shape.split('>');
    const why =
      mine.length === 0
        ? "not followed (pacu record --follow 5m reads each transfer until it is final): pacu's scenario, on its clock"
        : mine.length < SAMPLES_FOR_A_RULE
          ? `1 transfer followed: too few, pacu's scenario`
          : shapes.size > 1
            ? `followed transfers disagree (${[...shapes].map((one) => one || 'processing').join(' / ')}): pacu's scenario`
            : statuses.some((status) => !FINAL.has(status)) && statuses.length > 0
              ? `moved to ${shape}, which pacu's lifecycle cannot replay: pacu's scenario`
              : undefined;
    if (why) {
      report.kept(`lifecycle.usd_transfer.${type}`, about(type), undefined, why, entries);
      continue;
    }
    const steps = statuses.map((status, index) => ({
      status,
      after: median(mine.map((one) => one.steps[index]?.after ?? 0)),
    }));
    learned[`usd_transfer:${type}`] = steps;
    const seen = Math.min(...mine.map((one) => one.seen));
    report.learned(
      `lifecycle.usd_transfer.${type}`,
      about(type),
      steps,
      steps.length === 0
        ? `stays processing (still processing ${seen.toFixed(0)} s after, in ${mine.length} followed)`
        : steps.map((step) => `${step.status} after ${step.after.toFixed(1)} s`).join(', ') +
            ` (median of ${mine.length})`,
      entries,
    );
  }
  report.kept(
    'lifecycle.wallet_payout',
    'the lifecycle of a wallet payout',
    undefined,
    "no read of a payout exists: pacu's scenario",
  );
  return learned;
}

/**
 * The scenario a mock made from a recording runs: the lifecycles a follow saw, ahead of the default
 * scenario's rules by type (its magic amounts stay first); a scenario the user gave is theirs alone.
 */
export function withLearnedLifecycles(
  scenario: Scenario,
  behaviour: Behaviour,
  isDefault: boolean,
): Scenario {
  const learned = Object.entries(behaviour.lifecycles);
  if (!isDefault || learned.length === 0) return scenario;
  const rules = learned.map(([key, steps]) => {
    const [, type] = key.split(':');
    return {
      name: `learned: ${type} transfers as the recording's follow saw them`,
      match: { kind: 'usd_transfer' as const, transfer_type: type as 'ACH' | 'WIRE' },
      steps: steps.map((step) => ({ after: step.after, status: step.status as 'successful' | 'failed' })),
    };
  });
  const magic = scenario.rules.filter((rule) => rule.match.amount !== undefined);
  const rest = scenario.rules.filter((rule) => rule.match.amount === undefined);
  return { ...scenario, rules: [...magic, ...rules, ...rest] };
}
