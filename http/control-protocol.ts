import type { PushToCardPayment, Scope } from '../spec/index.ts';

/**
 * The control API of a pacu mock as a typed protocol: what each `/__pacu` endpoint takes and
 * answers. Here, in `spec/`, because both sides need it: the mock serves it (in-process as
 * `mock.control`, over HTTP under {@link CONTROL_PREFIX}) and the suites' control client calls it.
 */

/** The prefix of the control API: outside /v3, so it can never collide with the interface. */
export const CONTROL_PREFIX = '/__pacu';

/** Whether a (resolved) path is the control API's: the prefix itself or under it. */
export const isControlPath = (path: string): boolean =>
  path === CONTROL_PREFIX || path.startsWith(`${CONTROL_PREFIX}/`);

/** The three payments that have a lifecycle, named as their webhook events are. */
export type PaymentKind = 'usd_transfer' | 'wallet_payout' | 'push_to_card';
export type FinalStatus = 'successful' | 'failed';

/** The ids a user of the mock needs to call the read operations. */
export interface SeededIds {
  cardId: string;
  cardTransactionId: string;
  pushToCardId: string;
  merchantAccountId: string;
  userId: string;
}

/** `GET /__pacu/ids`: the seeded ids plus the demo client's credentials. */
export interface ControlIds extends SeededIds {
  clientId: string;
  clientSecret: string;
  scopes: Scope[];
}

/** `GET /__pacu/clock`. */
export interface ControlClock {
  mode: 'real' | 'manual';
  /** ISO 8601 UTC. */
  now: string;
  epochMs: number;
}

/** An OAuth client of the mock (client-credentials grant). */
export interface OAuthClient {
  clientId: string;
  clientSecret: string;
  scopes: Scope[];
}

/** A registered webhook receiver. */
export interface WebhookReceiver {
  id: string;
  url: string;
  secret: string;
  /** Set when the receiver belongs to one client: it gets that client's events only. */
  clientId?: string;
  /** Set (mock-clock time) once the receiver answered 410 Gone: nothing more is sent to it. */
  disabledAt?: string;
}

/** One try at delivering one event to one receiver. */
export interface DeliveryAttempt {
  eventId: string;
  type: string;
  receiverId: string;
  url: string;
  attempt: number;
  outcome: 'pending' | 'delivered' | 'failed';
  status?: number;
  error?: string;
  startedAt: string;
  finishedAt?: string;
  /** Set when this attempt failed and another is scheduled (mock-clock time; gone once cancelled). */
  nextAttemptAt?: string;
}

/** An event the mock emitted: `body` is the JSON text every receiver gets. */
export interface WebhookEventRecord {
  id: string;
  type: string;
  body: string;
  /** The client whose payment it is about, when there is one. */
  clientId?: string;
}

/** What the control API takes to create a push-to-card payment (no /v3 operation creates one). */
export interface PushToCardInput {
  amount: number;
  card_number?: string;
  description?: string;
}

/** What a scenario rule looks at: any field left out matches everything. */
export interface ScenarioMatch {
  kind?: PaymentKind | PaymentKind[];
  amount?: number | { min?: number; max?: number };
  account_number?: string;
  transfer_type?: 'ACH' | 'WIRE';
  /** A regular expression the whole reference must match. */
  reference?: string;
}

export interface ScenarioStep {
  /** Seconds after the payment was created. */
  after: number;
  status: FinalStatus;
}

export interface ScenarioRule {
  name?: string;
  match: ScenarioMatch;
  /** An empty list keeps the payment processing for ever. */
  steps: ScenarioStep[];
}

/** How payments move from processing to their final status: the first rule that matches wins. */
export interface Scenario {
  rules: ScenarioRule[];
  /** Faults installed with the scenario (at start, after a plain reset, on `PUT /__pacu/scenario`). */
  faults?: FaultSpec[];
}

/** `GET /__pacu/state`: a header, then one array per collection (docs/guides/mock-in-ci.md, the control API). */
export interface ControlStateSnapshot {
  format: 'pacu-mock-state';
  version: number;
  now: number;
  seeded: SeededIds;
}

/** What a fault does to the answer (docs/guides/mock-in-ci.md, faults). */
export type FaultKind =
  | 'status'
  | 'delay'
  | 'reset'
  | 'empty'
  | 'malformed'
  | 'commit-then-status'
  | 'commit-then-reset';

/** `POST /__pacu/faults`: one fault, as a scenario file's `faults:` lists it too. */
export interface FaultSpec {
  /** The operationId it applies to, e.g. `usdTransfer`. */
  operation: string;
  kind: FaultKind;
  /** `status` and `commit-then-status`: the HTTP status answered (400-599). */
  status?: number;
  /** `status` and `commit-then-status`: sent as `Retry-After` (seconds). */
  retryAfter?: number;
  /** `delay`: how long the real answer waits (ms, wall time). */
  ms?: number;
  /** Fires this many times, then the fault is gone. @default every time */
  times?: number;
  /** Chance of firing on a matching request, drawn from the mock's seed. @default 1 */
  probability?: number;
  /** Only requests of this OAuth client. */
  clientId?: string;
  /** Only requests whose JSON body matches: `reference` a regular expression over the whole value. */
  match?: { reference?: string; amount?: number };
}

/** A fault the mock holds: its spec, its id and how often it fired. */
export interface FaultRecord extends FaultSpec {
  id: string;
  fired: number;
}

/** What the journal says about a fault that fired on a request. */
export interface FiredFault {
  id: string;
  kind: FaultKind;
}

/** One request the mock received on the interface (the control API is not journaled). */
export interface RecordedRequest {
  /** ISO 8601 UTC, wall time. */
  at: string;
  method: string;
  /** Path and query string as sent. */
  path: string;
  operationId: string | null;
  clientId: string | null;
  /** The status answered; 0 when the connection was dropped by a fault. */
  status: number;
  fault: FiredFault | null;
  /** The JSON (or form) body, with credentials redacted; null without one. */
  body: unknown;
}

/** `GET /__pacu/requests` filters; every one given must match. */
export interface RequestFilter {
  operation?: string;
  clientId?: string;
  status?: number;
}

/** A request that matched no operation, with the nearest one it may have meant. */
export interface UnmatchedRequest extends RecordedRequest {
  /** e.g. `did you mean POST /v3/payments/usd/direct?`; null when nothing is near. */
  hint: string | null;
}

/** `GET /__pacu/coverage`: what the consumer's traffic reached since the mock started. */
export interface Coverage {
  since: string;
  operations: Array<{
    operationId: string;
    /** Status answered → how often. */
    statuses: Record<string, number>;
    /** Statuses the spec lists for the operation that were never answered. */
    missing: number[];
  }>;
  /** `usd_transfer: processing → failed` and the like, with how often each was reached. */
  transitions: Array<{ kind: PaymentKind; from: 'processing'; to: FinalStatus; count: number }>;
  /** Per event type of the spec: emitted, and acknowledged by a receiver. */
  events: Array<{ type: string; emitted: number; delivered: number }>;
  /** Per fault kind and operation: how often one fired. */
  faults: Array<{ operation: string; kind: FaultKind; fired: number }>;
  /** One line per thing the suite never saw (a status, a transition, an event). */
  neverSeen: string[];
}

/**
 * Every operation of the control API, with the in-process signatures of `mock.control`. The HTTP
 * client offers the same names, each answering a promise ({@link RemoteControl}).
 */
export interface ControlOperations {
  ids(): ControlIds;
  /**
   * Back to the seeded data and the start scenario; clients, tokens, receivers and the clock stay.
   * With a clientId, only what that client created goes (its payments, accounts, receivers,
   * faults and journal entries); everyone else's stays.
   */
  reset(options?: { clientId?: string }): void;
  clock(): ControlClock;
  /** Manual clock only: runs every lifecycle step that falls due. */
  advanceClock(seconds: number): { now: string; epochMs: number };
  /** With a clientId, the receiver gets only the events of that client's payments. */
  addReceiver(receiver: { url: string; secret: string; clientId?: string }): { id: string };
  receivers(): WebhookReceiver[];
  /** False when there was no such receiver (HTTP: 404). */
  removeReceiver(id: string): boolean;
  attempts(): DeliveryAttempt[];
  events(): WebhookEventRecord[];
  /** False when the mock no longer keeps that event (HTTP: 404). */
  redeliver(eventId: string): boolean;
  scenario(): Scenario;
  setScenario(scenario: unknown): void;
  dumpState(): ControlStateSnapshot;
  loadState(snapshot: unknown): void;
  addClient(client: { clientId: string; clientSecret: string; scopes?: Scope[] }): OAuthClient;
  createPushToCard(input: PushToCardInput): PushToCardPayment;
  addFault(fault: FaultSpec): FaultRecord;
  faults(): FaultRecord[];
  /** Removes every fault (with a clientId, that client's); answers how many went. */
  clearFaults(options?: { clientId?: string }): { cleared: number };
  requests(filter?: RequestFilter): RecordedRequest[];
  unmatchedRequests(): UnmatchedRequest[];
  coverage(): Coverage;
}

/** The control API over HTTP: the same operations, answered asynchronously. */
export type RemoteControl = {
  [K in keyof ControlOperations]: (
    ...args: Parameters<ControlOperations[K]>
  ) => Promise<ReturnType<ControlOperations[K]>>;
};

/** Where each operation lives under {@link CONTROL_PREFIX}; `:name` is a path parameter. */
export const CONTROL_ROUTES = {
  ids: ['GET', '/ids'],
  reset: ['POST', '/reset'],
  clock: ['GET', '/clock'],
  advanceClock: ['POST', '/clock/advance'],
  addReceiver: ['POST', '/webhooks/receivers'],
  receivers: ['GET', '/webhooks/receivers'],
  removeReceiver: ['DELETE', '/webhooks/receivers/:id'],
  attempts: ['GET', '/webhooks/attempts'],
  events: ['GET', '/webhooks/events'],
  redeliver: ['POST', '/webhooks/events/:eventId/redeliver'],
  scenario: ['GET', '/scenario'],
  setScenario: ['PUT', '/scenario'],
  dumpState: ['GET', '/state'],
  loadState: ['PUT', '/state'],
  addClient: ['POST', '/clients'],
  createPushToCard: ['POST', '/payments/card'],
  addFault: ['POST', '/faults'],
  faults: ['GET', '/faults'],
  clearFaults: ['DELETE', '/faults'],
  requests: ['GET', '/requests'],
  unmatchedRequests: ['GET', '/requests/unmatched'],
  coverage: ['GET', '/coverage'],
} as const satisfies Record<keyof ControlOperations, readonly ['GET' | 'POST' | 'PUT' | 'DELETE', string]>;

/** The answer of every refused control request (400, 404, 405, 409). */
export interface ControlErrorBody {
  error: string;
}
