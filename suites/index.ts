export type { ApiClient, ApiClientOptions, TokenGrant } from './api-client.ts';
export { API_CLIENT_DEFAULTS, createApiClient, tokenRequest } from './api-client.ts';
export type { ApiRequest, ApiResponse } from './api-request.ts';
export { basic, bearer, jsonRequest } from './api-request.ts';
export type {
  RecordedResponse,
  Report,
  ReportSummary,
  RuleCategory,
  RuleFailure,
  RuleResult,
  RuleStatus,
} from './report.ts';
export { summarise } from './report.ts';
export type { TargetConfig, TargetConfigInput, TargetIds } from './target-config.ts';
export { DEFAULT_SCOPES, readConfigFile, resolveTargetConfig } from './target-config.ts';
