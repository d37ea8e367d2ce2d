import type { Spec } from '../../spec/index.ts';
import type { PrismRequestCheck } from '../prism-adapter.ts';
import type { Scenario } from '../types.ts';
import type { Behaviour } from './behaviour.ts';
import type { MockClock } from './clock.ts';
import type { MockStore } from './store.ts';
import type { WebhookDispatcher } from './webhooks.ts';

/** What every handler works with. The store keeps its identity; only the scenario is swapped. */
export interface MockContext {
  readonly spec: Spec;
  readonly checkRequest: PrismRequestCheck;
  readonly clock: MockClock;
  readonly webhooks: WebhookDispatcher;
  readonly tokenLifetimeSeconds: number;
  /** The choices the description leaves open: pacu's, or a recorded sandbox's. */
  readonly behaviour: Behaviour;
  readonly store: MockStore;
  scenario: Scenario;
  log(line: string): void;
}
