import type { Spec } from '../../spec/index.ts';
import type { PrismRequestCheck } from '../prism-adapter.ts';
import type { Behaviour } from './behaviour.ts';
import type { StateStore, StoreClock } from './store/state-store.ts';
import type { WebhookDispatcher } from './webhooks.ts';

/** What every handler works with; all the state is the store's (time and the outbox included). */
export interface MockContext {
  readonly spec: Spec;
  readonly checkRequest: PrismRequestCheck;
  /** The store's clock. */
  readonly clock: StoreClock;
  /** The store's outbox. */
  readonly webhooks: WebhookDispatcher;
  readonly tokenLifetimeSeconds: number;
  /** The choices the description leaves open: pacu's, or a recorded sandbox's. */
  readonly behaviour: Behaviour;
  readonly store: StateStore;
  log(line: string): void;
}
