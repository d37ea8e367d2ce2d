import { createHash } from 'node:crypto';
import type { Pool } from 'pg';
import { ConfigError, type Spec } from '../../../../spec/index.ts';
import type { Scenario, SeededIds } from '../../../types.ts';
import type { MockState } from '../../state.ts';
import { StoreUnavailableError } from '../store-unavailable.ts';
import { createPgClient, PG_TIMEOUTS, type PgClient, type TransactionQuery } from './pg-client.ts';
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

/** How long a start tries a database that refuses connections (one starting in the same rollout). */
const REFUSED_FOR_MS = 2000;
/** How long a start waits for a database that answers it is starting up or recovering. */
const STARTING_FOR_MS = 10_000;

/** Why a database could not be reached, as the one line a start ends with (never the password). */
function unreachable(shown: string, error: Error): ConfigError {
  const cause = (error.cause ?? error) as { code?: string; message?: string };
  const code = cause.code ?? '';
  const why =
    code === 'ECONNREFUSED'
      ? 'connection refused. Is PostgreSQL running?'
      : code === 'ENOTFOUND' || code === 'EAI_AGAIN'
        ? 'no such host. Is the host name right?'
        : code === 'EHOSTUNREACH' || code === 'ENETUNREACH'
          ? 'no route to the host. Is the address right?'
          : /^57P0[1-3]$/.test(code)
            ? `the database is not accepting connections (${cause.message}). Is it still starting?`
            : /timeout/i.test(cause.message ?? '')
              ? `no answer within ${PG_TIMEOUTS.connectMs / 1000} s. Is the address right, and PostgreSQL running?`
              : `${cause.message ?? error.message}.`;
  return new ConfigError(`pacu: cannot reach the store ${shown}: ${why}`, { cause: error });
}

/**
 * Wait for the database to answer, a little: a refused connection for {@link REFUSED_FOR_MS}, one
 * starting up for {@link STARTING_FOR_MS}; then the start fails with one line saying why.
 */
async function reachable(db: PgClient, shown: string): Promise<void> {
  const started = Date.now();
  for (;;) {
    try {
      await db.query('open', { text: 'SELECT 1' });
      return;
    } catch (error) {
      if (!(error instanceof StoreUnavailableError)) throw error;
      const code = ((error.cause ?? {}) as { code?: string }).code ?? '';
      const waitFor = /^57P0[1-3]$/.test(code)
        ? STARTING_FOR_MS
        : code === 'ECONNREFUSED'
          ? REFUSED_FOR_MS
          : 0;
      if (Date.now() - started + 250 > waitFor) throw unreachable(shown, error);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}

/** How long each statement of a start (the schema lock, a migration, seeding) may take. */
const OPEN_TIMEOUT_MS = 60_000;

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
    await reachable(db, shown);
    return await db.transaction('open', async (query) => {
      // A start is not a request: creating or migrating the tables may take longer than an answer may.
      const slow: TransactionQuery = (statement) => query({ ...statement, timeoutMs: OPEN_TIMEOUT_MS });
      await slow({ text: 'SELECT pg_advisory_xact_lock($1)', values: [SCHEMA_LOCK] });
      await migrate(slow);
      if (options.reset) await slow({ text: `TRUNCATE ${TABLES.join(', ')} RESTART IDENTITY` });
      const [config] = await slow<{
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
      await slow({
        text: 'INSERT INTO pacu_config (id, version, now_ms, beginning, seeded, scenario) VALUES (1, 1, $1, $2, $3, $4)',
        values: [options.clockStart, options.beginning, state.seeded, options.scenario],
      });
      await writeState(slow, state, true);
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
