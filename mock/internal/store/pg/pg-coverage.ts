import type { Spec } from '../../../../spec/index.ts';
import { type CoverageRecorder, coverageReport } from '../../coverage.ts';
import type { PgClient } from './pg-client.ts';
import type { CoverageKey, Traffic } from './pg-traffic.ts';

export type { CoverageKey };

/** Add to coverage counts inside a transaction (a step's event, a delivery) as one statement. */
export const bumpCoverage = (key: CoverageKey): { text: string; values: unknown[] } => ({
  text: 'INSERT INTO pacu_coverage (key, count) VALUES ($1, 1) ON CONFLICT (key) DO UPDATE SET count = pacu_coverage.count + 1',
  values: [key],
});

/**
 * Coverage in PostgreSQL, counting every replica's traffic (a reset does not clear it). Answers
 * are counted in batches (pg-traffic.ts), written by every replica before a report is read;
 * events and deliveries are counted by the transactions that make them.
 */
export function pgCoverage(
  db: PgClient,
  spec: Spec,
  traffic: Traffic,
  everyone: () => Promise<void>,
): CoverageRecorder {
  const since = new Date().toISOString();
  const answered = (operationId: string, status: number): void =>
    traffic.count(`status ${operationId} ${status}`);
  return {
    answered,
    end({ operationId, status, fault }) {
      if (!operationId) return;
      if (fault) traffic.count(`fault ${operationId} ${fault.kind}`);
      if (status > 0) answered(operationId, status);
    },
    // Events and deliveries are counted where they are made, in their own transactions.
    emitted() {},
    fold() {},
    async report() {
      await everyone();
      const rows = await db.query<{ key: string; count: string }>('coverage-read', {
        text: 'SELECT key, count FROM pacu_coverage',
      });
      const statuses = new Map<string, Map<string, number>>();
      const emitted = new Map<string, number>();
      const delivered = new Map<string, number>();
      const faults = new Map<string, number>();
      for (const { key, count } of rows) {
        const [kind = '', ...rest] = key.split(' ');
        const value = Number(count);
        if (kind === 'status') {
          const [operation = '', status = ''] = rest;
          const byStatus = statuses.get(operation) ?? new Map<string, number>();
          byStatus.set(status, value);
          statuses.set(operation, byStatus);
        } else if (kind === 'emitted') emitted.set(rest.join(' '), value);
        else if (kind === 'delivered') delivered.set(rest.join(' '), value);
        else if (kind === 'fault') faults.set(rest.join(' '), value);
      }
      return coverageReport(spec, since, { statuses, emitted, delivered, faults });
    },
  };
}
