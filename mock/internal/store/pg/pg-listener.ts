import type { Client, Notification } from 'pg';
import { newId } from '../../random.ts';
import { StoreUnavailableError } from '../store-unavailable.ts';
import { PG_TIMEOUTS, type PgClient } from './pg-client.ts';

/** Each replica's listening connection is named so, with its id after a space: the live replicas are these. */
const LISTENER = 'pacu mock listener';
/** Asks every replica to write its batched journal rows and coverage counts now. */
const FLUSH = 'pacu_flush';
/** A replica's answer to {@link FLUSH}: `token replicaId`. */
const FLUSHED = 'pacu_flushed';
/** New due work for the cluster (a clock advance moved the clock): every replica looks now. */
const KICK = 'pacu_kick';
/** How long a read waits for the other replicas to write what they batched. */
export const FLUSH_WAIT_MS = PG_TIMEOUTS.queryMs;
const RECONNECT_MS = 500;

/** A replica's line to the others, through PostgreSQL's LISTEN and NOTIFY (decision 187). */
export interface Listener {
  /** Every live replica has written the journal rows and coverage counts of what it answered before now. */
  flushCluster(): Promise<void>;
  /** Every replica looks for due work now. */
  kickCluster(): Promise<void>;
  close(): Promise<void>;
}

/**
 * One connection per replica that LISTENs, named `pacu mock listener <id>` so the live replicas can
 * be counted in `pg_stat_activity` (a replica killed takes its connection with it). Server-side TCP
 * keepalives drop the connection of a machine that vanished within half a minute.
 */
export async function openListener(options: {
  url: string;
  db: PgClient;
  /** Write this replica's batched rows (rejects when they could not be written). */
  flush(): Promise<void>;
  kick(): void;
  log(line: string): void;
}): Promise<Listener> {
  const { default: pg } = await import('pg');
  const { db } = options;
  const id = newId('rep');
  const waiting = new Map<string, { acks: Set<string>; check(): void }>();
  let client: Client | undefined;
  let closed = false;
  let warned = false;

  const heard = (message: Notification): void => {
    const payload = message.payload ?? '';
    if (message.channel === KICK) {
      options.kick();
      return;
    }
    if (message.channel === FLUSHED) {
      const [token = '', from = ''] = payload.split(' ');
      const waiter = waiting.get(token);
      waiter?.acks.add(from);
      waiter?.check();
      return;
    }
    // Another replica asks (this one's own asks flush before asking).
    if (message.channel !== FLUSH || waiting.has(payload)) return;
    void options
      .flush()
      .then(() =>
        db.query('flush-ack', { text: 'SELECT pg_notify($1, $2)', values: [FLUSHED, `${payload} ${id}`] }),
      )
      .catch((error: Error) =>
        options.log(`pacu mock: cannot write the journal for another replica: ${error.message}`),
      );
  };

  const connect = async (): Promise<void> => {
    const next = new pg.Client({
      connectionString: options.url,
      application_name: `${LISTENER} ${id}`,
      connectionTimeoutMillis: PG_TIMEOUTS.connectMs,
      keepAlive: true,
      options: '-c tcp_keepalives_idle=10 -c tcp_keepalives_interval=5 -c tcp_keepalives_count=3',
    });
    const lost = (): void => {
      if (client !== next) return;
      client = undefined;
      next.removeAllListeners('notification');
      next.end().catch(() => {});
      if (!closed) setTimeout(reconnect, RECONNECT_MS).unref();
    };
    next.on('error', lost);
    next.on('end', lost);
    next.on('notification', heard);
    await next.connect();
    await next.query(`LISTEN ${FLUSH}; LISTEN ${FLUSHED}; LISTEN ${KICK}`);
    client = next;
  };
  const reconnect = (): void => {
    if (closed || client) return;
    connect().then(
      () => {
        if (warned) options.log("pacu mock: the store's notifications are back");
        warned = false;
      },
      (error: Error) => {
        if (!warned) options.log(`pacu mock: the store's notifications wait for the store: ${error.message}`);
        warned = true;
        if (!closed) setTimeout(reconnect, RECONNECT_MS).unref();
      },
    );
  };
  await connect();

  return {
    async flushCluster() {
      await options.flush();
      if (!client)
        throw new StoreUnavailableError(
          'this replica cannot hear the others (its listening connection is down)',
        );
      const token = newId('flush');
      const acks = new Set<string>();
      let others: string[] | undefined;
      let done: () => void = () => {};
      const all = new Promise<void>((resolve) => {
        done = resolve;
      });
      const check = (): void => {
        if (others?.every((other) => acks.has(other))) done();
      };
      waiting.set(token, { acks, check });
      let timer: NodeJS.Timeout | undefined;
      try {
        // The replicas live now are those to wait for: one that starts later has answered nothing yet.
        const [row] = await db.query<{ replicas: string[] }>('flush-ask', {
          text: `SELECT pg_notify($1, $2), ARRAY(SELECT substr(application_name, length($3) + 2) FROM pg_stat_activity
                 WHERE datname = current_database() AND application_name LIKE $3 || ' %') AS replicas`,
          values: [FLUSH, token, LISTENER],
        });
        others = (row?.replicas ?? []).filter((other) => other !== id);
        check();
        const late = new Promise<never>((_, reject) => {
          timer = setTimeout(() => {
            const silent = (others ?? []).filter((other) => !acks.has(other));
            reject(
              new StoreUnavailableError(
                `${silent.length} replica(s) did not write their journal within ${FLUSH_WAIT_MS} ms: what they answered cannot be shown whole`,
              ),
            );
          }, FLUSH_WAIT_MS);
        });
        await Promise.race([all, late]);
      } finally {
        clearTimeout(timer);
        waiting.delete(token);
      }
    },
    async kickCluster() {
      await db.query('kick', { text: 'SELECT pg_notify($1, $2)', values: [KICK, id] });
    },
    async close() {
      closed = true;
      const last = client;
      client = undefined;
      await last?.end().catch(() => {});
    },
  };
}
