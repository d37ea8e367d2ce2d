export { arbitraryFromSchema } from './inputs/schema-arbitrary.ts';
export { errorShapeProblem, isSuccess, successShapeProblem } from './judge/envelope-checks.ts';
export type {
  ExchangeFinding,
  ExchangeJudge,
  ExchangeVerdict,
  FindingSide,
  ObservedExchange,
} from './judge/exchange-judge.ts';
export { createExchangeJudge, judgeExchange } from './judge/exchange-judge.ts';
export type { ExchangeRing } from './judge/exchange-ring.ts';
export { createExchangeRing } from './judge/exchange-ring.ts';
export type { ExchangeState, ExchangeStateOptions } from './judge/exchange-state.ts';
export { createExchangeState, EXCHANGE_STATE_LIMIT } from './judge/exchange-state.ts';
export type { FindingLog } from './judge/finding-log.ts';
export { createFindingLog, KEPT_FINDINGS } from './judge/finding-log.ts';
export type { JudgeObserver, JudgeObserverOptions } from './judge/judge-observer.ts';
export { createJudgeObserver, createStateObserver } from './judge/judge-observer.ts';
export { exchangeOf } from './judge/traffic-exchange.ts';
export type { FailureDraft, ReportInput, ResultDraft } from './report/build-report.ts';
export { buildReport } from './report/build-report.ts';
export type {
  RecordedResponse,
  Report,
  ReportSummary,
  RuleCategory,
  RuleFailure,
  RuleResult,
  RuleStatus,
  WebhookEventType,
} from './report/report.ts';
export { CHECK_CATEGORIES, summarise } from './report/report.ts';
export type { CheckEntry, Fault, TrafficJudge } from './rules/catalogue.ts';
export { CHECKS, checkNamed, faultOf, RULES } from './rules/catalogue.ts';
export type { Need, Rule, RuleKit, RuleOutcome, ScopeGrant, Verdict } from './rules/rule.ts';
export { operationsOf } from './rules/rule.ts';
export { assertConformance, ConformanceError } from './runner/assert-conformance.ts';
export type { CheckOptions, ProgressEvent, ResolvedCheckOptions } from './runner/check-options.ts';
export { CHECK_DEFAULTS, resolveCheckOptions } from './runner/check-options.ts';
export type { FailureKey } from './runner/failure-id.ts';
export { formatFailureId, parseFailureId } from './runner/failure-id.ts';
export { runChecks } from './runner/run-checks.ts';
export type { Setting, Wording } from './runner/setting.ts';
export { optionWording } from './runner/setting.ts';
export type { ApiClient, ApiClientOptions, TokenGrant } from './target/api-client.ts';
export { API_CLIENT_DEFAULTS, createApiClient, tokenRequest } from './target/api-client.ts';
export type { ApiRequest, ApiResponse } from './target/api-request.ts';
export { basic, bearer, jsonOrUndefined, jsonRequest } from './target/api-request.ts';
export { assertTargetReachable } from './target/assert-reachable.ts';
export { assertTargetIsTheApi } from './target/assert-the-api.ts';
export type { ControlApiClient, ControlClientOptions } from './target/control-client.ts';
export { ControlApiError, createControlClient } from './target/control-client.ts';
export { CURL_ENVIRONMENT_NOTE, renderCurl } from './target/curl.ts';
export { isJsonMediaType } from './target/media-type.ts';
export type { IdValues, ResolvedIds } from './target/resolve-ids.ts';
export { resolveIds } from './target/resolve-ids.ts';
export type { TargetConfig, TargetConfigInput, TargetIds } from './target/target-config.ts';
export {
  DEFAULT_SCOPES,
  readConfigFile,
  resolveTargetConfig,
  TARGET_ID_KEYS,
} from './target/target-config.ts';
export { targetRedactor } from './target/target-redactor.ts';
export type { TokenSource } from './target/token-source.ts';
export { createTokenSource } from './target/token-source.ts';
export type { WebhookCheckOptions } from './webhooks/check-webhook-receiver.ts';
export { checkWebhookReceiver, WEBHOOK_CHECK_DEFAULTS } from './webhooks/check-webhook-receiver.ts';
export { signatureProblem } from './webhooks/webhook-receiver.ts';
