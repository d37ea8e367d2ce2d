export type { Har } from '../http/index.ts';
// The recordings writePactFromHar and replayRecording take: read them where they are taken.
export { readHar } from '../http/index.ts';
export { assertPactsAgreeWithSpec, assertPactsVerified } from './assert-contracts.ts';
export type { BrokerAccess } from './broker-pacts.ts';
export { fetchBrokerPacts } from './broker-pacts.ts';
export type {
  InteractionSpecCheck,
  PactSpecCheck,
  PactSpecCheckOptions,
} from './check-against-spec.ts';
export {
  AGAINST_SPEC_CURL_BASE,
  checkPactsAgainstSpec,
  formatFindings,
  PACT_SPEC_CHECK_DEFAULTS,
  pactSpecReport,
} from './check-against-spec.ts';
export type { ContractReportInput, InteractionOutcome } from './contract-report.ts';
export type { PactInteraction, PactMatcher, PactRequest, PactResponse } from './pact-file.ts';
export { collectPactFiles, parsePact, readPactFile } from './pact-file.ts';
export type { PactFromHarOptions } from './pact-from-har.ts';
export { writePactFromHar } from './pact-from-har.ts';
export {
  PACU_PACT_DIR,
  PACU_PROVIDER,
  PACU_STRICT_PACT_DIR,
  pacuPactDirs,
} from './pacu-pacts.ts';
export type { ProviderStateName } from './provider-state-names.ts';
export { KNOWN_PROVIDER_STATES, PROVIDER_STATES } from './provider-state-names.ts';
export type { ProviderStates, StateValues } from './provider-states.ts';
export { createProviderStates, unmetStateReason } from './provider-states.ts';
export type { ReplayOptions } from './replay-recording.ts';
export { REPLAY_DEFAULTS, replayRecording } from './replay-recording.ts';
export type { SpecFinding } from './spec-finding.ts';
export { NEVER_ISSUED_TOKEN } from './teaching-basics.ts';
export type { TaughtStep, TeachingOutcome, TeachingSessionOptions } from './teaching-session.ts';
export { runTeachingSession, TEACHING_DEFAULTS } from './teaching-session.ts';
export type { BrokerOptions, ResolvedVerifyOptions, VerifyPactsOptions } from './verify-pacts.ts';
export { resolveVerifyOptions, VERIFY_DEFAULTS, verifyPacts } from './verify-pacts.ts';
