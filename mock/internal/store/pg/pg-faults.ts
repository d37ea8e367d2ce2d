import type { FaultRecord } from '../../../../http/index.ts';
import { type FaultRegistry, faultMatches, validateFault } from '../../faults.ts';
import { newId, type Random, seededRandom } from '../../random.ts';
import type { PgClient } from './pg-client.ts';
import { bumpVersion } from './pg-config.ts';

/**
 * Faults in PostgreSQL: set through any replica, they fire on all. Each replica holds the list as of
 * the config version its request read; firing is one conditional update, so a fault with `times`
 * fires exactly that many times across the cluster.
 */
export function pgFaults(db: PgClient, seed: number, cached: () => readonly FaultRecord[]): FaultRegistry {
  let random: Random = seededRandom(seed);
  return {
    // A shared store cannot know without asking: every request takes the fault look (one read with the rest).
    armed: true,
    async add(spec) {
      const record: FaultRecord = { ...validateFault(spec), id: newId('flt'), fired: 0 };
      await db.transaction('fault-add', async (query) => {
        await query({
          text: 'INSERT INTO pacu_faults (id, client_id, times, spec) VALUES ($1, $2, $3, $4)',
          values: [record.id, record.clientId ?? null, record.times ?? null, record],
        });
        await query(bumpVersion);
      });
      return structuredClone(record);
    },
    async list() {
      const rows = await db.query<{ spec: FaultRecord; fired: string }>('fault-list', {
        text: 'SELECT spec, fired FROM pacu_faults WHERE times IS NULL OR fired < times ORDER BY seq',
      });
      return rows.map((row) => ({ ...row.spec, fired: Number(row.fired) }));
    },
    async clear(clientId) {
      return db.transaction('fault-clear', async (query) => {
        const rows = await query(
          clientId === undefined
            ? { text: 'DELETE FROM pacu_faults RETURNING id' }
            : { text: 'DELETE FROM pacu_faults WHERE client_id = $1 RETURNING id', values: [clientId] },
        );
        await query(bumpVersion);
        return rows.length;
      });
    },
    async fire(target) {
      for (const fault of cached()) {
        if (!faultMatches(fault, target)) continue;
        if (fault.probability !== undefined && fault.probability < 1 && random() >= fault.probability)
          continue;
        const [row] = await db.query<{ fired: string }>('fault-fire', {
          name: 'pacu-fault-fire',
          text: 'UPDATE pacu_faults SET fired = fired + 1 WHERE id = $1 AND (times IS NULL OR fired < times) RETURNING fired',
          values: [fault.id],
        });
        // Another replica used up its last time: the next fault may match.
        if (row) return { ...structuredClone(fault), fired: Number(row.fired) };
      }
      return undefined;
    },
    reseed() {
      random = seededRandom(seed);
    },
  };
}
