export type { ApiClient, ApiClientOptions, TokenGrant } from './api-client.ts';
export { API_CLIENT_DEFAULTS, createApiClient, tokenRequest } from './api-client.ts';
export type { ApiRequest, ApiResponse } from './api-request.ts';
export { basic, bearer, jsonOrUndefined, jsonRequest } from './api-request.ts';
export { assertConformance, ConformanceError } from './assert-conformance.ts';
export { assertTargetReachable } from './assert-reachable.ts';
export { boundedMemory } from './bounded-map.ts';
export type { FailureDraft, ReportInput, ResultDraft } from './build-report.ts';
export { buildReport } from './build-report.ts';
export { RULES } from './catalogue.ts';
export type { CheckOptions, ProgressEvent, ResolvedCheckOptions } from './check-options.ts';
export { CHECK_DEFAULTS, resolveCheckOptions } from './check-options.ts';
export type { ControlApiClient, ControlClientOptions } from './control-client.ts';
export { ControlApiError, createControlClient } from './control-client.ts';
export { CURL_ENVIRONMENT_NOTE, renderCurl } from './curl.ts';
export { errorShapeProblem, isSuccess, successShapeProblem } from './envelope-checks.ts';
export type {
  ExchangeFinding,
  ExchangeJudge,
  ExchangeVerdict,
  FindingSide,
  ObservedExchange,
} from './exchange-judge.ts';
export {
  createExchangeJudge,
  EXCHANGE_RULES,
  judgeExchange,
  REMEMBERED_ANSWERS,
  remembersAnswer,
} from './exchange-judge.ts';
export type { ExchangeState, ExchangeStateOptions } from './exchange-state.ts';
export { createExchangeState, EXCHANGE_STATE_LIMIT, STATEFUL_RULES } from './exchange-state.ts';
export type { FailureKey } from './failure-id.ts';
export { formatFailureId, parseFailureId } from './failure-id.ts';
export { isJsonMediaType } from './media-type.ts';
export type { Redactor, RunSecrets } from './redaction.ts';
export { createRedactor, SECRET_STAND_INS } from './redaction.ts';
export type {
  RecordedResponse,
  Report,
  ReportSummary,
  RuleCategory,
  RuleFailure,
  RuleResult,
  RuleStatus,
  WebhookEventType,
} from './report.ts';
export { CHECK_CATEGORIES, summarise } from './report.ts';
export type { IdValues, ResolvedIds } from './resolve-ids.ts';
export { resolveIds } from './resolve-ids.ts';
export type { Need, Rule, RuleKit, RuleOutcome, ScopeGrant, Verdict } from './rule.ts';
export { operationsOf } from './rule.ts';
export { runChecks } from './run-checks.ts';
export { arbitraryFromSchema } from './schema-arbitrary.ts';
export type { Setting, Wording } from './setting.ts';
export { optionWording } from './setting.ts';
export type { TargetConfig, TargetConfigInput, TargetIds } from './target-config.ts';
export { DEFAULT_SCOPES, readConfigFile, resolveTargetConfig, TARGET_ID_KEYS } from './target-config.ts';
export { signatureProblem } from './webhook-receiver.ts';
export type { WebhookCheckOptions } from './webhooks/check-webhook-receiver.ts';
export { checkWebhookReceiver, WEBHOOK_CHECK_DEFAULTS } from './webhooks/check-webhook-receiver.ts';
