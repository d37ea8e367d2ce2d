import { ConfigError } from '../../../../spec/index.ts';
import type { PgClient } from './pg-client.ts';

// pacu's tables, created on first start and migrated forward, each step in one transaction with
// its version. A database made by a newer pacu is refused: this one cannot know what it changed.

/** The schema version this pacu writes; MIGRATIONS[n - 1] brings a database from n - 1 to n. */
export const SCHEMA_VERSION = 3;

const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE pacu_config (
    id int PRIMARY KEY CHECK (id = 1),
    version bigint NOT NULL,
    now_ms bigint NOT NULL,
    beginning text NOT NULL,
    seeded jsonb NOT NULL,
    scenario jsonb NOT NULL
  );
  CREATE TABLE pacu_clients (client_id text PRIMARY KEY, doc jsonb NOT NULL);
  CREATE TABLE pacu_tokens (token text PRIMARY KEY, client_id text NOT NULL, expires_at bigint NOT NULL, doc jsonb NOT NULL);
  CREATE TABLE pacu_users (user_id text PRIMARY KEY, seq int NOT NULL, doc jsonb NOT NULL);
  CREATE TABLE pacu_cards (card_id text PRIMARY KEY, doc jsonb NOT NULL);
  CREATE TABLE pacu_card_transactions (transaction_id text PRIMARY KEY, doc jsonb NOT NULL);
  CREATE TABLE pacu_accounts (account_id text PRIMARY KEY, client_id text, created_at bigint, doc jsonb NOT NULL);
  CREATE TABLE pacu_transfers (
    transaction_id text PRIMARY KEY,
    client_id text NOT NULL,
    reference text NOT NULL,
    created_at bigint,
    doc jsonb NOT NULL,
    UNIQUE (client_id, reference)
  );
  CREATE TABLE pacu_payouts (transaction_id text PRIMARY KEY, client_id text NOT NULL, created_at bigint, doc jsonb NOT NULL);
  CREATE TABLE pacu_push_to_card (transaction_id text PRIMARY KEY, created_at bigint, doc jsonb NOT NULL);
  CREATE INDEX pacu_accounts_made ON pacu_accounts (created_at);
  CREATE INDEX pacu_transfers_made ON pacu_transfers (created_at);
  CREATE INDEX pacu_payouts_made ON pacu_payouts (created_at);
  CREATE INDEX pacu_push_to_card_made ON pacu_push_to_card (created_at);
  CREATE TABLE pacu_p2p_notified (user_id text PRIMARY KEY);
  CREATE TABLE pacu_receivers (id text PRIMARY KEY, client_id text, doc jsonb NOT NULL);
  CREATE TABLE pacu_due (kind text NOT NULL, payment_id text NOT NULL, at bigint NOT NULL, PRIMARY KEY (kind, payment_id));
  CREATE INDEX pacu_due_at ON pacu_due (at);
  CREATE TABLE pacu_faults (seq bigserial PRIMARY KEY, id text UNIQUE NOT NULL, client_id text, times bigint, fired bigint NOT NULL DEFAULT 0, spec jsonb NOT NULL);
  CREATE TABLE pacu_events (seq bigserial PRIMARY KEY, id text UNIQUE NOT NULL, type text NOT NULL, client_id text, body text NOT NULL, created_at bigint);
  CREATE TABLE pacu_deliveries (
    event_id text NOT NULL,
    receiver_id text NOT NULL,
    attempt int NOT NULL,
    due_at bigint NOT NULL,
    state text NOT NULL,
    lease_until timestamptz,
    PRIMARY KEY (event_id, receiver_id)
  );
  CREATE INDEX pacu_deliveries_due ON pacu_deliveries (due_at) WHERE state = 'pending';
  CREATE TABLE pacu_attempts (seq bigserial PRIMARY KEY, event_id text NOT NULL, doc jsonb NOT NULL);
  CREATE TABLE pacu_journal (seq bigserial PRIMARY KEY, at_ms bigint NOT NULL, client_id text, doc jsonb NOT NULL);
  CREATE TABLE pacu_coverage (key text PRIMARY KEY, count bigint NOT NULL);
  `,
  // 2: a due row's order of making (a clock advance runs the work made before it began, decision
  // 165); a receiver's throttle, shared by every replica (decision 188).
  `
  ALTER TABLE pacu_due ADD COLUMN seq bigserial;
  ALTER TABLE pacu_receivers ADD COLUMN lane_limit int NOT NULL DEFAULT 16, ADD COLUMN lane_successes int NOT NULL DEFAULT 0;
  `,
  // 3: the journal a row per batch a replica writes, its entries a JSON array kept out of line
  // without compression: compressing every batch cost more than the rest of its write (decision 197).
  `
  ALTER TABLE pacu_journal RENAME TO pacu_journal_entries;
  CREATE TABLE pacu_journal (seq bigserial PRIMARY KEY, entries int NOT NULL, clients text[] NOT NULL, doc json NOT NULL);
  ALTER TABLE pacu_journal ALTER COLUMN doc SET STORAGE EXTERNAL;
  INSERT INTO pacu_journal (entries, clients, doc)
    SELECT 1, CASE WHEN client_id IS NULL THEN '{}'::text[] ELSE ARRAY[client_id] END, json_build_array(doc)
    FROM pacu_journal_entries ORDER BY seq;
  DROP TABLE pacu_journal_entries;
  `,
];

/** Every table, in an order a TRUNCATE or DROP can take them. */
export const TABLES = [
  'pacu_config',
  'pacu_clients',
  'pacu_tokens',
  'pacu_users',
  'pacu_cards',
  'pacu_card_transactions',
  'pacu_accounts',
  'pacu_transfers',
  'pacu_payouts',
  'pacu_push_to_card',
  'pacu_p2p_notified',
  'pacu_receivers',
  'pacu_due',
  'pacu_faults',
  'pacu_events',
  'pacu_deliveries',
  'pacu_attempts',
  'pacu_journal',
  'pacu_coverage',
] as const;

/** One lock for every pacu starting on this database: creating, migrating and seeding happen once. */
export const SCHEMA_LOCK = 7_316_100_035;

/**
 * Bring the database to {@link SCHEMA_VERSION} inside `transaction` (which holds {@link SCHEMA_LOCK}),
 * or refuse one a newer pacu made. Returns the version it found (0: a new database).
 */
export async function migrate(query: Parameters<Parameters<PgClient['transaction']>[1]>[0]): Promise<number> {
  await query({ text: 'CREATE TABLE IF NOT EXISTS pacu_schema (version int NOT NULL)' });
  const [row] = await query<{ version: number }>({ text: 'SELECT version FROM pacu_schema' });
  const found = row?.version ?? 0;
  if (found > SCHEMA_VERSION) {
    throw new ConfigError(
      `pacu: the database was made by a newer pacu (schema ${found}, this pacu knows ${SCHEMA_VERSION}): upgrade pacu, or use another database`,
      { code: 'PACU_ERR_CONFIG' },
    );
  }
  for (let version = found; version < SCHEMA_VERSION; version++)
    await query({ text: MIGRATIONS[version] as string });
  if (row) await query({ text: 'UPDATE pacu_schema SET version = $1', values: [SCHEMA_VERSION] });
  else await query({ text: 'INSERT INTO pacu_schema (version) VALUES ($1)', values: [SCHEMA_VERSION] });
  return found;
}
