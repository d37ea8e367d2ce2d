import { PRUNE_EVERY_MS } from '../retention.ts';
import type { PgClient } from './pg-client.ts';
import { runDueSteps, STEP_BATCH } from './pg-lifecycle.ts';

/** How often a replica looks for due work it was not told of (another replica's, or one that died). */
export const POLL_MS = 200;
/** Batches of steps one pass takes before it lets deliveries and requests have the connection pool. */
const BATCHES_PER_PASS = 5;

export interface Worker {
  /** Look now (new work may be due). */
  kick(): void;
  /** Look at `at` (a step of a payment this replica made), if that is before the next poll. */
  wakeAt(at: number): void;
  stop(): Promise<void>;
}

/**
 * The replica's share of the cluster's due work: steps due by `upTo()` (in batches, each batch a
 * transaction, claimed with SKIP LOCKED) and webhook deliveries. Errors (the database away) are
 * told once and retried on the next poll.
 */
export function createWorker(deps: {
  db: PgClient;
  webhooks: { deliverDue(): Promise<number> };
  upTo(): number;
  /** Forget what is past retention (pg-prune.ts); run every {@link PRUNE_EVERY_MS}. */
  prune(): Promise<unknown>;
  log(line: string): void;
}): Worker {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = false;
  let failing = false;
  let pruned = Date.now();
  const pass = async (): Promise<void> => {
    try {
      if (Date.now() - pruned >= PRUNE_EVERY_MS) {
        pruned = Date.now();
        await deps.prune();
      }
      const upTo = deps.upTo();
      let taken = STEP_BATCH;
      for (let batch = 0; batch < BATCHES_PER_PASS && taken === STEP_BATCH; batch++)
        taken = await deps.db.transaction('step', (query) => runDueSteps(query, { upTo }));
      // More is due than a pass takes: the next pass follows at once.
      if (taken === STEP_BATCH) again = true;
      await deps.webhooks.deliverDue();
      if (failing) deps.log('pacu mock: the store answers again; due work resumes');
      failing = false;
    } catch (error) {
      if (!failing) deps.log(`pacu mock: due work waits for the store: ${(error as Error).message}`);
      failing = true;
    }
  };
  const schedule = (delay: number): void => {
    if (stopped) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(run, Math.max(0, delay));
    timer.unref();
  };
  function run(): void {
    timer = undefined;
    if (running) {
      again = true;
      return;
    }
    running = pass().finally(() => {
      running = undefined;
      if (again) {
        again = false;
        schedule(0);
      } else schedule(POLL_MS);
    });
  }
  schedule(0);
  return {
    kick: () => schedule(0),
    wakeAt(at) {
      const delay = at - Date.now();
      if (delay < POLL_MS) schedule(delay);
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
