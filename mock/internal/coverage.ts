import type {
  Coverage,
  DeliveryAttempt,
  FaultKind,
  FinalStatus,
  PaymentKind,
  RequestObserver,
} from '../../http/index.ts';
import type { Spec } from '../../spec/index.ts';
import { after, andThen, type Maybe } from './store/maybe.ts';
import type { WebhookDispatcher } from './webhooks.ts';

const KINDS: readonly PaymentKind[] = ['usd_transfer', 'wallet_payout', 'push_to_card'];
const FINAL: readonly FinalStatus[] = ['successful', 'failed'];

/**
 * What the consumer's traffic reached, counted for the life of the mock (resets do not clear it):
 * an observer of the request pipeline (answers and the faults that shaped them) and of webhooks.
 */
export interface CoverageRecorder extends RequestObserver {
  answered(operationId: string, status: number): void;
  emitted(eventType: string): void;
  /** Delivery attempts the dispatcher is about to forget (a reset clears its history). */
  fold(attempts: readonly DeliveryAttempt[]): void;
  report(currentAttempts: readonly DeliveryAttempt[]): Maybe<Coverage>;
}

const bump = (map: Map<string, number>, key: string): void => {
  map.set(key, (map.get(key) ?? 0) + 1);
};

export function createCoverageRecorder(spec: Spec): CoverageRecorder {
  const since = new Date().toISOString();
  const statuses = new Map<string, Map<string, number>>();
  const emitted = new Map<string, number>();
  const delivered = new Map<string, number>();
  const faults = new Map<string, number>();
  const countDelivered = (attempts: readonly DeliveryAttempt[], into: Map<string, number>): void => {
    for (const attempt of attempts) if (attempt.outcome === 'delivered') bump(into, attempt.type);
  };
  const answered = (operationId: string, status: number): void => {
    let byStatus = statuses.get(operationId);
    if (!byStatus) {
      byStatus = new Map();
      statuses.set(operationId, byStatus);
    }
    bump(byStatus, String(status));
  };
  return {
    answered,
    end({ operationId, status, fault }) {
      if (!operationId) return;
      if (fault) bump(faults, `${operationId} ${fault.kind}`);
      if (status > 0) answered(operationId, status);
    },
    emitted: (type) => bump(emitted, type),
    fold: (attempts) => countDelivered(attempts, delivered),
    report(current) {
      const deliveredNow = new Map(delivered);
      countDelivered(current, deliveredNow);
      return coverageReport(spec, since, { statuses, emitted, delivered: deliveredNow, faults });
    },
  };
}

/** What coverage counts, wherever a store keeps the counts. */
export interface CoverageCounts {
  /** operationId → status → answers. */
  statuses: ReadonlyMap<string, ReadonlyMap<string, number>>;
  /** Event type → emitted, and → acknowledged by a receiver. */
  emitted: ReadonlyMap<string, number>;
  delivered: ReadonlyMap<string, number>;
  /** `operationId kind` → fired. */
  faults: ReadonlyMap<string, number>;
}

/** The coverage report of `counts`: every operation, transition and event, and what was never seen. */
export function coverageReport(spec: Spec, since: string, counts: CoverageCounts): Coverage {
  const { statuses, emitted, delivered, faults } = counts;
  const neverSeen: string[] = [];
  const operations = spec.operations.map((operation) => {
    const seen = statuses.get(operation.id) ?? new Map<string, number>();
    const missing = [...operation.responses.keys()].filter((status) => !seen.has(String(status)));
    for (const status of missing) neverSeen.push(`${operation.id} never answered ${status}`);
    return { operationId: operation.id, statuses: Object.fromEntries(seen), missing };
  });
  const transitions = KINDS.flatMap((kind) =>
    FINAL.map((to) => {
      const count = emitted.get(`${kind}.${to}`) ?? 0;
      if (count === 0) neverSeen.push(`${kind} never went processing → ${to}`);
      return { kind, from: 'processing' as const, to, count };
    }),
  );
  const events = spec.webhooks.map(({ type }) => {
    const row = { type, emitted: emitted.get(type) ?? 0, delivered: delivered.get(type) ?? 0 };
    if (row.delivered === 0) neverSeen.push(`no receiver acknowledged a ${type} webhook`);
    return row;
  });
  return {
    since,
    operations,
    transitions,
    events,
    faults: [...faults].map(([key, fired]) => {
      const [operation = '', kind] = key.split(' ');
      return { operation, kind: kind as FaultKind, fired };
    }),
    neverSeen,
  };
}

/** The dispatcher, with every emitted event counted and its history folded in before a reset clears it. */
export function observedForCoverage(
  dispatcher: WebhookDispatcher,
  coverage: CoverageRecorder,
): WebhookDispatcher {
  return {
    ...dispatcher,
    emit(type, payload, clientId) {
      coverage.emitted(type);
      return dispatcher.emit(type, payload, clientId);
    },
    clearHistory() {
      return andThen(dispatcher.attempts(), (attempts) => {
        coverage.fold(attempts);
        return after(dispatcher.clearHistory(), undefined);
      });
    },
  };
}
