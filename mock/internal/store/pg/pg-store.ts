import type { StateSnapshot } from '../../../types.ts';
import { toSnapshot } from '../../snapshot.ts';
import type { MockState } from '../../state.ts';
import type { StoreSettings } from '../memory-store.ts';
import type { StateStore } from '../state-store.ts';
import { advanceCluster } from './pg-advance.ts';
import { createCachedRead } from './pg-cached-read.ts';
import type { RoundTrips } from './pg-client.ts';
import { bumpVersion, createConfigCache } from './pg-config.ts';
import { pgCoverage } from './pg-coverage.ts';
import { pgFaults } from './pg-faults.ts';
import { pgJournal } from './pg-journal.ts';
import { type Listener, openListener } from './pg-listener.ts';
import { beginningOf, openDatabase } from './pg-open.ts';
import { pruneDatabase } from './pg-prune.ts';
import { pgRecords } from './pg-records.ts';
import { BUSINESS_TABLES, readState, WIRING_TABLES, writeState } from './pg-state.ts';
import { createTraffic } from './pg-traffic.ts';
import { pgWebhooks } from './pg-webhooks.ts';
import { createWorker } from './pg-worker.ts';

/** The PostgreSQL store, with its round trips counted by what asked for them. */
export interface PgStore extends StateStore {
  readonly roundTrips: RoundTrips;
}

/**
 * `--store postgres://…`: the one truth for N replicas. Nothing is cached past the config version
 * every read returns; writes are committed before they resolve; due work and deliveries are rows
 * claimed once for the cluster (see pg-lifecycle.ts, pg-webhooks.ts).
 */
export async function openPgStore(
  settings: StoreSettings,
  options: { url: string; reset: boolean; recording: string | undefined },
  initial: () => MockState,
): Promise<PgStore> {
  const opened = await openDatabase({
    url: options.url,
    beginning: beginningOf(settings.spec, settings.seed, options.recording),
    initial,
    clockStart: settings.clockStart ?? Date.now(),
    scenario: settings.scenario,
    reset: options.reset,
    log: settings.log,
  });
  const { db } = opened;
  let seeded = opened.seeded;
  const cache = createConfigCache(db, { scenario: opened.scenario, nowMs: opened.nowMs });
  await cache.refresh();
  const manual = settings.clock === 'manual';
  const now = (): number => (manual ? cache.nowMs() : Date.now());
  let worker: ReturnType<typeof createWorker> | undefined;
  const kick = (): void => worker?.kick();
  const webhooks = pgWebhooks(db, { retry: settings.webhookRetry, now, log: settings.log, kick, manual });
  const prune = () => pruneDatabase(db, settings.retention, settings.journalSize, now());
  worker = createWorker({ db, webhooks, upTo: now, prune, log: settings.log });
  const records = pgRecords(db, {
    read: createCachedRead(db, { seen: (config) => cache.seen(config), now }),
    armed: (at) => {
      if (at <= now()) kick();
      else if (!manual) worker?.wakeAt(at);
    },
    emitted: kick,
    now,
  });
  const traffic = createTraffic(db, settings.log);
  let listener: Listener;
  try {
    listener = await openListener({ url: options.url, db, flush: traffic.flush, kick, log: settings.log });
  } catch (error) {
    await worker.stop();
    await db.close();
    throw error;
  }
  const everyone = (): Promise<void> => listener.flushCluster();
  const journal = pgJournal(db, traffic, everyone, { ...settings, size: settings.journalSize });
  const coverage = pgCoverage(db, settings.spec, traffic, everyone);
  return {
    kind: 'postgres',
    shared: true,
    get seeded() {
      return seeded;
    },
    seededNow: opened.seededNow,
    roundTrips: db.roundTrips,
    records,
    clock: {
      mode: settings.clock,
      now,
      async current() {
        if (!manual) return Date.now();
        await cache.refresh();
        return cache.nowMs();
      },
      async advance(ms) {
        const target = await advanceCluster(db, ms);
        await cache.seen({ version: -1, nowMs: target });
        // What fell due by the target that others made meanwhile: every replica looks now.
        await listener.kickCluster();
        await prune();
        return target;
      },
    },
    faults: pgFaults(db, settings.seed, cache.faults),
    journal,
    coverage,
    webhooks,
    scenario: () => cache.scenario(),
    async setScenario(scenario) {
      await db.query('scenario', {
        text: 'UPDATE pacu_config SET scenario = $1, version = version + 1',
        values: [scenario],
      });
      await cache.refresh();
    },
    async reset(fresh, clientId) {
      await db.transaction('reset', async (query) => {
        if (clientId !== undefined) {
          for (const [kind, table] of [
            ['usd_transfer', 'pacu_transfers'],
            ['wallet_payout', 'pacu_payouts'],
          ] as const)
            await query({
              text: `DELETE FROM pacu_due WHERE kind = $2 AND payment_id IN (SELECT transaction_id FROM ${table} WHERE client_id = $1)`,
              values: [clientId, kind],
            });
          await query({
            text: `UPDATE pacu_deliveries SET state = 'dropped', lease_until = NULL WHERE state = 'pending'
              AND receiver_id IN (SELECT id FROM pacu_receivers WHERE client_id = $1)`,
            values: [clientId],
          });
          for (const table of ['pacu_transfers', 'pacu_payouts', 'pacu_accounts', 'pacu_receivers'])
            await query({ text: `DELETE FROM ${table} WHERE client_id = $1`, values: [clientId] });
        } else {
          await query({ text: 'SELECT 1 FROM pacu_config FOR UPDATE' });
          await query({ text: `TRUNCATE ${BUSINESS_TABLES.join(', ')}` });
          await writeState(query, fresh(), false);
        }
        await query(bumpVersion);
      });
    },
    async dump(): Promise<StateSnapshot> {
      const state = await db.transaction('dump', async (query) => {
        // One snapshot of every table, whatever other replicas write meanwhile.
        await query({ text: 'SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY' });
        return readState(query, seeded);
      });
      return toSnapshot(state, now());
    },
    async load(state) {
      await db.transaction('load', async (query) => {
        await query({ text: `TRUNCATE ${[...BUSINESS_TABLES, ...WIRING_TABLES].join(', ')}` });
        await writeState(query, state, true);
        await query({
          text: 'UPDATE pacu_config SET seeded = $1, version = version + 1',
          values: [state.seeded],
        });
      });
      seeded = state.seeded;
    },
    stats: () => ({ kind: 'postgres', shared: true, roundTrips: { ...db.roundTrips } }),
    committed: () => undefined,
    async close() {
      await worker?.stop();
      await traffic.flush().catch(() => {});
      await listener.close();
      await webhooks.close();
      await db.close();
    },
  };
}
