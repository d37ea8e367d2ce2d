// The package's front door (`import … from 'pacu-kit'`): the mock, the checks, the contract verifier and
// the spec loader with their types. Each folder is also a subpath (`pacu/mock`, `pacu/suites`,
// `pacu/contracts`, `pacu/proxy`, `pacu/spec`) for the rest of its exports and a smaller import.
export type { BrokerOptions, VerifyPactsOptions } from './contracts/index.ts';
export { assertPactsVerified, VERIFY_DEFAULTS, verifyPacts } from './contracts/index.ts';
export type {
  Change,
  DescriptionInput,
  DiffOptions,
  DiffReport,
  Severity,
  UsageRecord,
} from './diff/index.ts';
export { DIFF_DEFAULTS, diffSpecs } from './diff/index.ts';
export type { MockApp, MockClient, MockOptions, RunningMock } from './mock/index.ts';
export { createMock, MOCK_DEFAULTS, startMock } from './mock/index.ts';
export type { ProxyOptions, RunningProxy } from './proxy/index.ts';
export { PROXY_DEFAULTS, startProxy } from './proxy/index.ts';
export type { OperationId, PacuErrorCode, Profile, Scope, Spec } from './spec/index.ts';
export {
  ConfigError,
  loadSpec,
  PACU_VERSION,
  PacuError,
  SpecError,
  TargetUnreachableError,
} from './spec/index.ts';
export type {
  CheckOptions,
  ProgressEvent,
  Report,
  ReportSummary,
  RuleCategory,
  RuleFailure,
  RuleResult,
  RuleStatus,
  TargetConfig,
  TargetConfigInput,
} from './suites/index.ts';
export {
  assertConformance,
  CHECK_DEFAULTS,
  ConformanceError,
  resolveTargetConfig,
  runChecks,
} from './suites/index.ts';
