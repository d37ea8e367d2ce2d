import { StoreUnavailableError } from '../store-unavailable.ts';
import type { PgClient, PgSession } from './pg-client.ts';
import { runDueSteps, STEP_BATCH } from './pg-lifecycle.ts';

/** One clock advance at a time for the cluster: held by the replica that advances, across its batches. */
const ADVANCE_LOCK = 7_316_100_037;
/** How long an advance waits for another replica's to end before it is told 503. */
const LOCK_WAIT_MS = 30_000;

/** The session lock, asked for again and again: a waiting lock statement cannot be given up safely. */
async function lock(session: PgSession): Promise<void> {
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    const [row] = await session.query<{ taken: boolean }>({
      text: 'SELECT pg_try_advisory_lock($1) AS taken',
      values: [ADVANCE_LOCK],
    });
    if (row?.taken) return;
    if (Date.now() > deadline)
      throw new StoreUnavailableError(`another replica's clock advance still runs after ${LOCK_WAIT_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * Move a shared manual clock `ms` forward and resolve with the new time (decision 165): the work due
 * by the target made before the advance began runs first, in batches, each step stamped with its own
 * time; then the clock moves for every replica. Work made meanwhile runs right after, as any due
 * work does, so the advance ends after the work it found, whatever traffic goes on.
 */
export function advanceCluster(db: PgClient, ms: number): Promise<number> {
  return db.session('advance', async (session) => {
    await lock(session);
    try {
      const [start] = await session.query<{ now_ms: string; horizon: string | null }>({
        text: 'SELECT now_ms, (SELECT max(seq) FROM pacu_due) AS horizon FROM pacu_config',
      });
      if (!start) throw new Error('the store has no clock row');
      const target = Number(start.now_ms) + ms;
      if (start.horizon !== null) {
        const horizon = Number(start.horizon);
        let taken = STEP_BATCH;
        while (taken === STEP_BATCH)
          taken = await session.transaction((query) =>
            runDueSteps(query, { upTo: target, horizon, wait: true }),
          );
      }
      await session.query({ text: 'UPDATE pacu_config SET now_ms = $1', values: [target] });
      return target;
    } finally {
      await session.query({ text: 'SELECT pg_advisory_unlock($1)', values: [ADVANCE_LOCK] });
    }
  });
}
