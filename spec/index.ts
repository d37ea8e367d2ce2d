export { isAbaRoutingNumber, withAbaCheckDigit } from './aba-routing-number.ts';
export type { ControlGuardCheck, ControlRefusal } from './control-guard.ts';
export {
  CONTROL_TOKEN_HEADER,
  controlGuard,
  IN_PROCESS_HOST,
  isLoopbackHost,
  isWildcardHost,
} from './control-guard.ts';
export type {
  ControlClock,
  ControlErrorBody,
  ControlIds,
  ControlOperations,
  ControlStateSnapshot,
  Coverage,
  DeliveryAttempt,
  FaultKind,
  FaultRecord,
  FaultSpec,
  FinalStatus,
  FiredFault,
  OAuthClient,
  PaymentKind,
  PushToCardInput,
  RecordedRequest,
  RemoteControl,
  RequestFilter,
  Scenario,
  ScenarioMatch,
  ScenarioRule,
  ScenarioStep,
  SeededIds,
  UnmatchedRequest,
  WebhookEventRecord,
  WebhookReceiver,
} from './control-protocol.ts';
export { CONTROL_PREFIX, CONTROL_ROUTES } from './control-protocol.ts';
export { collectDecisions, documentedSchema, schemaForProfile } from './decisions.ts';
export type { Statement } from './description-statements.ts';
export { normaliseText, parseStatements } from './description-statements.ts';
export type { PacuErrorCode } from './errors.ts';
export { ConfigError, PacuError, SpecError, TargetUnreachableError } from './errors.ts';
export type {
  Har,
  HarBodyText,
  HarEntry,
  HarEntryText,
  HarExchange,
  HarHeadersJson,
  HarNameValue,
  HarRequest,
  HarResponse,
  RoutedExchange,
} from './har.ts';
export {
  asHar,
  emptyHar,
  harBodyText,
  harEntry,
  harEntryText,
  isoTime,
  joinHarEntryText,
  readHar,
  relativePath,
  routeHar,
} from './har.ts';
export type { JSONSchema7 } from './json-schema.ts';
export type { ListeningServer } from './listen-http.ts';
export { listenHttp } from './listen-http.ts';
export { DEFAULT_SPEC_FILE, loadOpenApi, loadSpec } from './load-spec.ts';
export type {
  DecidedLimits,
  Decision,
  OperationId,
  OperationSecurity,
  OperationSpec,
  ParameterSpec,
  Profile,
  RequestBodySpec,
  ResponseSpec,
  Scope,
  Spec,
  WebhookEventSpec,
} from './model.ts';
export { DECIDED_LIMITS, OPERATION_IDS, OPERATION_ROUTES, SCOPES } from './model.ts';
export type {
  AccessToken,
  Account,
  AccountCreationRequest,
  CardTransaction,
  ErrorEnvelope,
  P2pStatus,
  PushToCardPayment,
  TokenRequest,
  UsdTransfer,
  UsdTransferRequest,
  User,
  UserList,
  VirtualCard,
  WalletPayout,
  WalletPayoutRequest,
  WebhookEvent,
} from './records.ts';
export type { ObservedRequest, RequestEnd, RequestObserver } from './request-events.ts';
export type { RouteResult } from './route.ts';
export { pathFor, routeRequest } from './route.ts';
export type { SchemaCheck, SchemaIssue } from './schema-validator.ts';
export { compileSchema, hasAtMostDecimals } from './schema-validator.ts';
export type { IndexedStatement, StatementEntry, StatementStatus } from './statement-index.ts';
export {
  entryMatches,
  indexStatements,
  loadStatementIndex,
  STATEMENTS_FILE,
} from './statement-index.ts';
export { PACU_VERSION } from './version.ts';
export type { SignedWebhookHeaders } from './webhook-signature.ts';
export {
  signWebhook,
  WEBHOOK_TOLERANCE_SECONDS,
  webhookHeaders,
  webhookSecretKey,
  webhookSignatureProblem,
} from './webhook-signature.ts';
