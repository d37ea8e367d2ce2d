import type { Scope } from './model.ts';
import type { PushToCardPayment } from './records.ts';

/**
 * The control API of a pacu mock as a typed protocol: what each `/__pacu` endpoint takes and
 * answers. Here, in `spec/`, because both sides need it: the mock serves it (in-process as
 * `mock.control`, over HTTP under {@link CONTROL_PREFIX}) and the suites' control client calls it.
 */

/** The prefix of the control API: outside /v3, so it can never collide with the interface. */
export const CONTROL_PREFIX = '/__pacu';

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
}

/** `GET /__pacu/state`: a header, then one array per collection (see the README). */
export interface ControlStateSnapshot {
  format: 'pacu-mock-state';
  version: number;
  now: number;
  seeded: SeededIds;
}

/**
 * Every operation of the control API, with the in-process signatures of `mock.control`. The HTTP
 * client offers the same names, each answering a promise ({@link RemoteControl}).
 */
export interface ControlOperations {
  ids(): ControlIds;
  /** Back to the seeded data and the start scenario; clients, tokens, receivers and the clock stay. */
  reset(): void;
  clock(): ControlClock;
  /** Manual clock only: runs every lifecycle step that falls due. */
  advanceClock(seconds: number): { now: string; epochMs: number };
  addReceiver(receiver: { url: string; secret: string }): { id: string };
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
} as const satisfies Record<keyof ControlOperations, readonly ['GET' | 'POST' | 'PUT' | 'DELETE', string]>;

/** The answer of every refused control request (400, 404, 405, 409). */
export interface ControlErrorBody {
  error: string;
}
