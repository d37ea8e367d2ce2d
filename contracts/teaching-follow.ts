import { jsonRequest } from '../suites/index.ts';
import { pathOf } from './teaching-bodies.ts';
import { dataOf, type Teacher } from './teaching-context.ts';

/** Transfers followed per transfer type: two, so one slow answer makes no rule. */
const FOLLOWED_PER_TYPE = 2;
/** Seconds after the follow starts at which each unfinished transfer is read again; then each minute. */
const ROUNDS_S = [1, 2, 4, 8, 15, 30, 60] as const;
const EVERY_S = 60;
/** Statuses that are not final: the description's only one is processing. */
const PENDING = new Set(['processing']);

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** What following showed: per transfer, the status last read, and whether time ran out. */
export interface FollowOutcome {
  readonly followed: number;
  readonly finished: number;
}

/**
 * `pacu record --follow`: read each transfer the session made again (an exact replay is the only read
 * the description gives a transfer) until its status is final or `followMs` is over, at widening
 * intervals. Wallet payouts have no read and no idempotency key: they are not followed.
 */
export async function teachFollow(teacher: Teacher, followMs: number): Promise<FollowOutcome> {
  const perType = new Map<unknown, Array<Record<string, unknown>>>();
  for (const body of teacher.found.transfers ?? []) {
    const kept = perType.get(body.transfer_type) ?? [];
    if (kept.length < FOLLOWED_PER_TYPE) perType.set(body.transfer_type, [...kept, body]);
  }
  let open = [...perType.values()].flat();
  const followed = open.length;
  const started = Date.now();
  const deadline = started + followMs;
  for (let round = 0; open.length > 0; round++) {
    const due =
      started +
      1000 * (ROUNDS_S[round] ?? ROUNDS_S[ROUNDS_S.length - 1] + EVERY_S * (round - ROUNDS_S.length + 1));
    if (due > deadline) break;
    await sleep(Math.max(0, due - Date.now()));
    const still: Array<Record<string, unknown>> = [];
    for (const body of open) {
      const answer = await teacher.send(
        `the lifecycle of each ${String(body.transfer_type)} transfer: its status, read again`,
        jsonRequest('POST', pathOf('usdTransfer'), body, await teacher.withToken()),
      );
      const status = dataOf(answer)?.transaction_status;
      if (answer.status === 200 && typeof status === 'string' && PENDING.has(status)) still.push(body);
    }
    open = still;
  }
  return { followed, finished: followed - open.length };
}
