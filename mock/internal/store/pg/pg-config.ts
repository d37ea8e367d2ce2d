import type { FaultRecord } from '../../../../http/index.ts';
import type { Scenario } from '../../../types.ts';
import type { PgClient, Statement } from './pg-client.ts';
import type { ConfigStamp } from './pg-reads.ts';

/**
 * The mock time `$1` (this replica's) or the cluster's manual clock, whichever is later: a real
 * clock's row stays at its start, a manual one is where any replica moved it.
 */
export const CLUSTER_NOW = 'GREATEST($1::bigint, (SELECT now_ms FROM pacu_config))';

/** A change every replica must see on its next request (faults, the scenario, a reset): a new version. */
export const bumpVersion: Statement = { text: 'UPDATE pacu_config SET version = version + 1' };

/** The cluster's settings as this replica last read them, refreshed when a read shows a newer version. */
export interface ConfigCache {
  scenario(): Scenario;
  faults(): readonly FaultRecord[];
  /** The manual clock as the last read saw it (never backwards). */
  nowMs(): number;
  /** After a read: refresh if its version is newer (one more round trip, only after a change). */
  seen(stamp: ConfigStamp): Promise<void> | undefined;
  refresh(): Promise<void>;
}

export function createConfigCache(db: PgClient, start: { scenario: Scenario; nowMs: number }): ConfigCache {
  let version = -1;
  let scenario = start.scenario;
  let faults: FaultRecord[] = [];
  let nowMs = start.nowMs;
  // Not shared between callers: one begun before a change would answer with what the change replaced.
  const refresh = async (): Promise<void> => {
    const [row] = await db.query<{
      version: string;
      now_ms: string;
      scenario: Scenario;
      faults: FaultRecord[] | null;
    }>('config-read', {
      text: `SELECT version, now_ms, scenario,
              (SELECT json_agg(spec || jsonb_build_object('fired', fired) ORDER BY seq) FROM pacu_faults WHERE times IS NULL OR fired < times) AS faults
              FROM pacu_config`,
    });
    if (!row || Number(row.version) < version) return;
    version = Number(row.version);
    scenario = row.scenario;
    faults = row.faults ?? [];
    nowMs = Math.max(nowMs, Number(row.now_ms));
  };
  return {
    scenario: () => scenario,
    faults: () => faults,
    nowMs: () => nowMs,
    seen(stamp) {
      nowMs = Math.max(nowMs, stamp.nowMs);
      return stamp.version <= version ? undefined : refresh();
    },
    refresh,
  };
}
