import type { LearnedBound } from '../report/report.ts';

/**
 * The bounds a run learned, shared by its rules: a refusal a known bound explains costs no request,
 * and probes of one operation run one at a time, so two cases never learn the same bound twice.
 */
export interface BoundLedger {
  /** The learned bound that explains refusing `body` on `operation`, if one does. */
  covering(operation: string, body: Readonly<Record<string, unknown>>): LearnedBound | undefined;
  /** Whether the operation refused even a request of central values (a probe then proves nothing). */
  refusesCentral(operation: string): boolean;
  add(bound: LearnedBound): void;
  markRefusesCentral(operation: string): void;
  /** Run `work` alone among the probes of `operation`. */
  alone<T>(operation: string, work: () => Promise<T>): Promise<T>;
  /** Every bound learned, in the order found. */
  readonly bounds: readonly LearnedBound[];
}

/** Whether `value` lies on the refused side of `bound`. */
function beyond(bound: LearnedBound, value: unknown): boolean {
  switch (bound.kind) {
    case 'below':
      return typeof value === 'number' && value < (bound.limit as number);
    case 'above':
      return typeof value === 'number' && value > (bound.limit as number);
    case 'longer':
      return typeof value === 'string' && value.length > (bound.limit as number);
    case 'shorter':
      return typeof value === 'string' && value.length < (bound.limit as number);
    case 'value':
      return value === bound.limit;
  }
}

export function createBoundLedger(): BoundLedger {
  const bounds: LearnedBound[] = [];
  const broken = new Set<string>();
  const queues = new Map<string, Promise<unknown>>();
  return {
    covering: (operation, body) =>
      bounds.find(
        (bound) =>
          bound.operation === operation &&
          Object.entries(bound.when).every(([field, value]) => body[field] === value) &&
          beyond(bound, body[bound.field]),
      ),
    refusesCentral: (operation) => broken.has(operation),
    add: (bound) => {
      bounds.push(bound);
    },
    markRefusesCentral: (operation) => {
      broken.add(operation);
    },
    alone(operation, work) {
      const before = queues.get(operation) ?? Promise.resolve();
      const mine = before.then(work, work);
      queues.set(
        operation,
        mine.catch(() => undefined),
      );
      return mine;
    },
    get bounds() {
      return [...bounds];
    },
  };
}
