import { createHash } from 'node:crypto';
import type { Pool } from 'pg';
import { ConfigError, type Spec } from '../../../../spec/index.ts';
import type { Scenario, SeededIds } from '../../../types.ts';
import type { MockState } from '../../state.ts';
import { StoreUnavailableError } from '../store-unavailable.ts';
import { createPgClient, PG_TIMEOUTS, type PgClient } from './pg-client.ts';
import { migrate, SCHEMA_LOCK, TABLES } from './pg-schema.ts';
import { writeState } from './pg-state.ts';

/** `postgres://user@host:port/db` as it may be shown: never its password. */
export function shownUrl(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.password = '';
    return parsed.toString();
  } catch {
    return '(a store URL that is not a URL)';
  }
}

/** What a database is seeded from: the seed (or the recording) and the description, as one line. */
export function beginningOf(spec: Spec, seed: number, recording: string | undefined): string {
  const description = createHash('sha256').update(JSON.stringify(spec.document)).digest('hex').slice(0, 12);
  return `${recording === undefined ? `seed ${seed}` : `recording ${recording}`}, description ${description}`;
}

/** The seeded ids in the order a mock announces them (jsonb keeps keys in an order of its own). */
export const inOrder = (seeded: SeededIds): SeededIds => ({
  cardId: seeded.cardId,
  cardTransactionId: seeded.cardTransactionId,
  pushToCardId: seeded.pushToCardId,
  merchantAccountId: seeded.merchantAccountId,
  userId: seeded.userId,
});

/** How long a start waits for a database that is starting too (a rollout, a busy machine). */
const REACH_WITHIN_MS = 10_000;

/** Wait for the database to answer, a little: one that never does fails the start with one line. */
async function reachable(db: PgClient): Promise<void> {
  const deadline = Date.now() + REACH_WITHIN_MS;
  for (;;) {
    try {
      await db.query('open', { text: 'SELECT 1' });
      return;
    } catch (error) {
      if (!(error instanceof StoreUnavailableError) || Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}

/** What the first replica to open a database wrote, and every later one reads. */
export interface Opened {
  db: PgClient;
  seeded: SeededIds;
  nowMs: number;
  scenario: Scenario;
  /** This open made and seeded the database. */
  seededNow: boolean;
}

/**
 * Connect, create or migrate the tables (one transaction under an advisory lock, so replicas that
 * start together do it once), and seed a new database; a database seeded from another beginning
 * is refused with one line. `reset` (`--reset-store`) empties every table first.
 */
export async function openDatabase(options: {
  url: string;
  beginning: string;
  initial: () => MockState;
  clockStart: number;
  scenario: Scenario;
  reset: boolean;
  log(line: string): void;
}): Promise<Opened> {
  const { default: pg } = await import('pg');
  const shown = shownUrl(options.url);
  let pool: Pool;
  try {
    pool = new pg.Pool({
      connectionString: options.url,
      max: 16,
      connectionTimeoutMillis: PG_TIMEOUTS.connectMs,
      query_timeout: PG_TIMEOUTS.queryMs,
      idleTimeoutMillis: PG_TIMEOUTS.idleMs,
      application_name: 'pacu mock',
    });
  } catch (error) {
    throw new ConfigError(`pacu: --store ${shown} is not a PostgreSQL URL: ${(error as Error).message}`, {
      cause: error,
    });
  }
  // An idle connection the server drops (a restart) must not take the process down: the next query reconnects.
  pool.on('error', (error) => options.log(`pacu mock: the store dropped a connection: ${error.message}`));
  const db = createPgClient(pool);
  try {
    await reachable(db);
    return await db.transaction('open', async (query) => {
      await query({ text: 'SELECT pg_advisory_xact_lock($1)', values: [SCHEMA_LOCK] });
      await migrate(query);
      if (options.reset) await query({ text: `TRUNCATE ${TABLES.join(', ')} RESTART IDENTITY` });
      const [config] = await query<{
        beginning: string;
        seeded: SeededIds;
        now_ms: string;
        scenario: Scenario;
      }>({
        text: 'SELECT beginning, seeded, now_ms, scenario FROM pacu_config',
      });
      if (config) {
        if (config.beginning !== options.beginning)
          throw new ConfigError(
            `pacu: the store ${shown} was seeded from ${config.beginning}, this mock starts from ${options.beginning}: give every replica the same --seed and description, or empty it with --reset-store`,
          );
        return {
          db,
          seeded: inOrder(config.seeded),
          nowMs: Number(config.now_ms),
          scenario: config.scenario,
          seededNow: false,
        };
      }
      const state = options.initial();
      await query({
        text: 'INSERT INTO pacu_config (id, version, now_ms, beginning, seeded, scenario) VALUES (1, 1, $1, $2, $3, $4)',
        values: [options.clockStart, options.beginning, state.seeded, options.scenario],
      });
      await writeState(query, state, true);
      return {
        db,
        seeded: state.seeded,
        nowMs: options.clockStart,
        scenario: options.scenario,
        seededNow: true,
      };
    });
  } catch (error) {
    await pool.end().catch(() => {});
    if (error instanceof ConfigError) throw error;
    throw new ConfigError(`pacu: cannot open the store ${shown}: ${(error as Error).message}`, {
      cause: error,
    });
  }
}
