import type { Coverage, RequestObserver } from '../http/index.ts';
import type { Spec } from '../spec/index.ts';
import { createCoverageRecorder } from './internal/coverage.ts';
import { now } from './internal/store/maybe.ts';

/** Coverage as a request observer, for traffic another pipeline answers (`pacu proxy`). */
export interface CoverageObserver extends RequestObserver {
  /** What the traffic reached so far: statuses per operation, and what it never reached. */
  report(): Coverage;
}

/**
 * The mock's own coverage recorder, fed by any pipeline that emits request events: the operations
 * and statuses the traffic reached. Webhooks and lifecycle transitions are the mock's to see; here
 * they stay at zero.
 *
 * @example
 * const coverage = createCoverageObserver(await loadSpec());
 * const proxy = await startProxy({ upstream, observers: [coverage] });
 */
export function createCoverageObserver(spec: Spec): CoverageObserver {
  const recorder = createCoverageRecorder(spec);
  return { end: (event) => recorder.end?.(event), report: () => now(recorder.report([]), 'coverage') };
}
