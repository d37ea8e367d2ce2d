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
export type { ListeningServer } from './front-door.ts';
export { listenHttp } from './front-door.ts';
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
export type { ObservedRequest, RequestEnd, RequestObserver } from './pipeline.ts';
export type { RecordedCredential } from './recorded-credential.ts';
export { credentialValue, readRecordedCredential, WRONG_SECRET_SUFFIX } from './recorded-credential.ts';
export type { Redactor, RunSecrets } from './redaction.ts';
export { createRedactor, SECRET_STAND_INS } from './redaction.ts';
export type { SignedWebhookHeaders } from './webhook-signature.ts';
export {
  signWebhook,
  WEBHOOK_TOLERANCE_SECONDS,
  webhookHeaders,
  webhookSecretKey,
  webhookSignatureProblem,
} from './webhook-signature.ts';
