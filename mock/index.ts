export type { CoverageObserver } from './coverage-observer.ts';
export { createCoverageObserver } from './coverage-observer.ts';
export { createMock, startMock } from './create-mock.ts';
export { DEFAULT_SCENARIO } from './default-scenario.ts';
export { MOCK_DEFAULTS, resolveOptions } from './options.ts';
export { loadScenarioFile, validateScenario } from './scenario.ts';
export type {
  ClockMode,
  ControlIds,
  DeliveryAttempt,
  LearnedChoice,
  LearnedNote,
  LearnedReport,
  MockApp,
  MockClient,
  MockControl,
  MockOptions,
  PaymentKind,
  PushToCardInput,
  ResolvedMockOptions,
  RunningMock,
  Scenario,
  ScenarioMatch,
  ScenarioRule,
  ScenarioStep,
  SeededIds,
  StateSnapshot,
  WebhookEventRecord,
  WebhookReceiver,
  WebhookRetry,
} from './types.ts';
