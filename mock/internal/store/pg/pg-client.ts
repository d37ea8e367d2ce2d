import type { Pool, PoolClient, QueryResultRow } from 'pg';
import { ConfigError } from '../../../../spec/index.ts';
import { StoreUnavailableError } from '../store-unavailable.ts';

/** A statement: its text, and a name when it is run often (prepared once per connection). */
export interface Statement {
  name?: string;
  text: string;
  values?: unknown[];
  /** How long to wait for its answer (ms), when not the usual {@link PG_TIMEOUTS}.queryMs. */
  timeoutMs?: number;
}

/** Round trips to the database, by what asked for them (the bench reports them per operation). */
export type RoundTrips = Record<string, number>;

/** The database as the PostgreSQL store uses it: one statement a round trip, counted, errors mapped. */
export interface PgClient {
  query<R extends QueryResultRow>(what: string, statement: Statement): Promise<R[]>;
  /** Run `work` in one transaction on one connection (BEGIN and COMMIT are round trips too). */
  transaction<T>(what: string, work: (query: TransactionQuery) => Promise<T>): Promise<T>;
  /** One connection for several statements and transactions (a session lock held across them). */
  session<T>(what: string, work: (session: PgSession) => Promise<T>): Promise<T>;
  readonly roundTrips: RoundTrips;
  close(): Promise<void>;
}

export type TransactionQuery = <R extends QueryResultRow>(statement: Statement) => Promise<R[]>;

/** A connection held by one caller: statements on it, and transactions one after another. */
export interface PgSession {
  query: TransactionQuery;
  transaction<T>(work: (query: TransactionQuery) => Promise<T>): Promise<T>;
}

/** How long a request may wait for a connection or an answer before it is told 503. */
export const PG_TIMEOUTS = { connectMs: 2000, queryMs: 5000, idleMs: 10_000 } as const;

/** Errors that mean "the database cannot answer now", as opposed to a bug in a statement. */
function unavailable(error: unknown): boolean {
  const code = (error as { code?: string }).code ?? '';
  const message = (error as Error).message ?? '';
  return (
    /^(08|53|57P|58)/.test(code) ||
    ['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'ENOTFOUND', 'EHOSTUNREACH'].includes(code) ||
    /timeout|terminat|Connection|connect|not queryable|closed/i.test(message)
  );
}

/** The error a caller sees: the store unavailable (503), or the driver's own. */
export function mapped(error: unknown): Error {
  if (error instanceof StoreUnavailableError || error instanceof ConfigError) return error;
  if (unavailable(error)) return new StoreUnavailableError((error as Error).message, { cause: error });
  return error as Error;
}

export function createPgClient(pool: Pool): PgClient {
  const roundTrips: RoundTrips = {};
  const count = (what: string): void => {
    roundTrips[what] = (roundTrips[what] ?? 0) + 1;
  };
  const run = async <R extends QueryResultRow>(
    target: Pool | PoolClient,
    what: string,
    statement: Statement,
  ): Promise<R[]> => {
    count(what);
    try {
      const timeout = statement.timeoutMs === undefined ? {} : { query_timeout: statement.timeoutMs };
      const result = await target.query<R>(
        statement.name
          ? { name: statement.name, text: statement.text, values: statement.values ?? [], ...timeout }
          : { text: statement.text, values: statement.values ?? [], ...timeout },
      );
      return result.rows;
    } catch (error) {
      throw mapped(error);
    }
  };
  /** A pooled connection for `work`; one that broke (a database crash) is dropped, not reused. */
  const held = async <T>(what: string, work: (session: PgSession) => Promise<T>): Promise<T> => {
    let client: PoolClient;
    try {
      client = await pool.connect();
    } catch (error) {
      throw mapped(error);
    }
    let broken = false;
    // A connection that dies between statements (a database crash) errors on the client itself.
    const dropped = (): void => {
      broken = true;
    };
    client.on('error', dropped);
    const query: TransactionQuery = (statement) => run(client, what, statement);
    const session: PgSession = {
      query,
      async transaction(inner) {
        await query({ text: 'BEGIN' });
        try {
          const result = await inner(query);
          await query({ text: 'COMMIT' });
          return result;
        } catch (error) {
          await client.query('ROLLBACK').catch(() => {
            broken = true;
          });
          throw mapped(error);
        }
      },
    };
    try {
      return await work(session);
    } catch (error) {
      // A statement that timed out may still run on the server: the connection is not reused.
      if (error instanceof StoreUnavailableError) broken = true;
      throw mapped(error);
    } finally {
      client.off('error', dropped);
      client.release(broken);
    }
  };
  return {
    roundTrips,
    query: (what, statement) => run(pool, what, statement),
    transaction: (what, work) => held(what, (session) => session.transaction(work)),
    session: held,
    close: () => pool.end(),
  };
}
