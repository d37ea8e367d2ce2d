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
export { CONTROL_PREFIX, CONTROL_ROUTES, isControlPath } from './control-protocol.ts';
export type { Credentials } from './credentials.ts';
export { bearerToken, hasScheme, parseAuthorization } from './credentials.ts';
export { decodedBytes, decodedText } from './decoded-body.ts';
export { sendText } from './edge-answers.ts';
export type { ErrorEnvelope } from './error-envelope.ts';
export { errorEnvelope, errorEnvelopeText, refusalText } from './error-envelope.ts';
export type { FileLock, LockTaker } from './file-lock.ts';
export { lockFile } from './file-lock.ts';
export { type ForgottenSecrets, rememberForgotten } from './forgotten-secrets.ts';
export type { EdgeRequest, FrontDoor, FrontDoorLimits } from './front-door.ts';
export { FRONT_DOOR_DEFAULTS, openFrontDoor } from './front-door.ts';
export type {
  Har,
  HarEntry,
  HarExchange,
  HarNameValue,
  HarRequest,
  HarResponse,
  RoutedExchange,
} from './har.ts';
export {
  asHar,
  bodyBytes,
  emptyHar,
  harEntry,
  isoTime,
  readHar,
  recordedBytes,
  relativePath,
  routeHar,
} from './har.ts';
export { endToEnd, endToEndLines } from './hop-by-hop.ts';
export type { ListeningServer } from './listen-http.ts';
export type {
  AnswerError,
  ObservedAnswer,
  ObservedRequest,
  RequestEnd,
  RequestObserver,
  RequestPipeline,
} from './pipeline.ts';
export { bodyText, createPipeline } from './pipeline.ts';
export type { RecordedCredential } from './recorded-credential.ts';
export { credentialValue, readRecordedCredential, WRONG_SECRET_SUFFIX } from './recorded-credential.ts';
export type { RecordErrors, Recording, RecordingOptions } from './recording.ts';
export { openRecording } from './recording.ts';
export type { RedactedBody, Redactor, RunSecrets } from './redaction.ts';
export { createRedactor, learningObserver, SECRET_STAND_INS } from './redaction.ts';
export { httpDateMs, retryAfterForm, retryAfterMs } from './retry-after.ts';
export type { Ring } from './ring.ts';
export { createRing, ringSlots } from './ring.ts';
export type { SurfaceKit, SurfaceKitOptions, SurfaceRecording } from './surface-kit.ts';
export { createSurfaceRedactor, openSurfaceKit } from './surface-kit.ts';
export type { SignedWebhookHeaders } from './webhook-signature.ts';
export {
  signWebhook,
  WEBHOOK_TOLERANCE_SECONDS,
  webhookHeaders,
  webhookSecretKey,
  webhookSecretProblem,
  webhookSignatureProblem,
} from './webhook-signature.ts';
