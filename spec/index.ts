export { isAbaRoutingNumber, withAbaCheckDigit } from './aba-routing-number.ts';
export { collectDecisions, documentedSchema, schemaForProfile } from './decisions.ts';
export type { Statement } from './description-statements.ts';
export { normaliseText, parseStatements } from './description-statements.ts';
export type { PacuErrorCode } from './errors.ts';
export { ConfigError, PacuError, SpecError, TargetUnreachableError } from './errors.ts';
export type { JSONSchema7 } from './json-schema.ts';
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
export type { EchoFact } from './operation-fields.ts';
export { echoOf, propertiesOf, recordFields, requestFieldNames } from './operation-fields.ts';
export { decodeGraph, encodeGraph } from './parsed-description.ts';
export type { PendingCache } from './pending-once.ts';
export { pendingOnce, readOnce } from './pending-once.ts';
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
export { jsonProblem, yamlProblem } from './syntax-problem.ts';
export { PACU_VERSION } from './version.ts';
