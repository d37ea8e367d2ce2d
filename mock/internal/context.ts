import type { Spec } from '../../spec/index.ts';
import type { PrismRequestCheck } from '../prism-adapter.ts';
import type { MockClock } from './clock.ts';
import type { Scenario } from './scenario.ts';
import type { MockState } from './state.ts';
import type { WebhookDispatcher } from './webhooks.ts';

/** What every handler works with. `state` and `scenario` are swapped whole on reset and load. */
export interface MockContext {
  readonly spec: Spec;
  readonly checkRequest: PrismRequestCheck;
  readonly clock: MockClock;
  readonly webhooks: WebhookDispatcher;
  readonly tokenLifetimeSeconds: number;
  state: MockState;
  scenario: Scenario;
  /** Note that state changed, so persistence writes it soon. */
  markDirty(): void;
  log(line: string): void;
}
