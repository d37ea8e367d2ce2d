// The mock's public shapes in one place (msw's glossary.ts): index.ts re-exports from here, never
// from internal/, and internal code imports its public types from here too.
import type { PushToCardPayment, Scope } from '../spec/index.ts';

/** `real` follows wall time; `manual` stands still until advanced, so tests never sleep. */
export type ClockMode = 'real' | 'manual';

/** The three payments that have a lifecycle, named as their webhook events are. */
export type PaymentKind = 'usd_transfer' | 'wallet_payout' | 'push_to_card';
export type FinalStatus = 'successful' | 'failed';

/** An OAuth client of the mock (client-credentials grant). */
export interface MockClient {
  clientId: string;
  clientSecret: string;
  scopes: Scope[];
}

/** The ids a user of the mock needs to call the read operations. */
export interface SeededIds {
  cardId: string;
  cardTransactionId: string;
  pushToCardId: string;
  merchantAccountId: string;
  userId: string;
}

export interface WebhookReceiver {
  id: string;
  url: string;
  secret: string;
  /** Set when the receiver answered 410 Gone (Standard Webhooks: stop sending to it). */
  disabledAt?: string;
}

/** What the control API takes to create a push-to-card payment (no /v3 operation creates one). */
export interface PushToCardInput {
  amount: number;
  card_number?: string;
  description?: string;
}

/** What a rule looks at: any field left out matches everything. */
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

/** The collections of a state snapshot, in the order they are written and read. */
export type StateCollection =
  | 'users'
  | 'p2pNotified'
  | 'cards'
  | 'cardTransactions'
  | 'pushToCard'
  | 'accounts'
  | 'transfers'
  | 'payouts'
  | 'clients'
  | 'tokens'
  | 'receivers';

/** The header of a snapshot: which format, the mock clock when taken, the seeded ids. */
export interface SnapshotHeader {
  format: 'pacu-mock-state';
  version: 1;
  now: number;
  seeded: SeededIds;
}

/** `GET /__pacu/state`: the header plus one array per collection. */
export type StateSnapshot = SnapshotHeader & Record<StateCollection, unknown[]>;

/** When and how often to retry a delivery that failed (Standard Webhooks' advice on answers). */
export interface WebhookRetry {
  /** Wait before retry 1, 2, …, on the mock's clock; its length is the number of retries. */
  delaysMs: number[];
  /** The HTTP exchange (not the wait for a free connection) must finish within this. */
  timeoutMs: number;
  /** Each delay is stretched or shrunk by up to this fraction at random, so retries spread out. */
  jitter: number;
}

/** One try at delivering one event to one receiver. */
export interface DeliveryAttempt {
  eventId: string;
  type: string;
  receiverId: string;
  url: string;
  attempt: number;
  outcome: 'pending' | 'delivered' | 'failed' | 'cancelled';
  status?: number;
  error?: string;
  startedAt: string;
  finishedAt?: string;
  /** Set when this attempt failed and another is scheduled (mock-clock time). */
  nextAttemptAt?: string;
}

export interface WebhookEventRecord {
  id: string;
  type: string;
  body: string;
}

/** `GET /__pacu/ids`: the seeded ids plus the demo client's credentials. */
export interface ControlIds extends SeededIds {
  clientId: string;
  clientSecret: string;
  scopes: Scope[];
}

/** The control API in-process; `/__pacu` over HTTP maps one to one onto these. Bad input throws. */
export interface MockControl {
  ids(): ControlIds;
  /** Back to the seeded data and the start scenario; clients, tokens, receivers and the clock stay. */
  reset(): void;
  clock(): { mode: ClockMode; now: string; epochMs: number };
  /** Manual clock only: runs every lifecycle step and webhook retry that falls due. */
  advanceClock(seconds: number): { now: string; epochMs: number };
  addReceiver(receiver: { url: string; secret: string }): { id: string };
  receivers(): WebhookReceiver[];
  removeReceiver(id: string): boolean;
  attempts(): DeliveryAttempt[];
  events(): WebhookEventRecord[];
  /** Send again now; a retry already scheduled for the event is cancelled. */
  redeliver(eventId: string): boolean;
  /** Resolves once no webhook delivery is in flight (retries waiting on a manual clock do not count). */
  webhooksIdle(): Promise<void>;
  scenario(): Scenario;
  setScenario(scenario: unknown): void;
  dumpState(): StateSnapshot;
  loadState(snapshot: unknown): void;
  addClient(client: MockClient): MockClient;
  createPushToCard(input: PushToCardInput): PushToCardPayment;
  /** Resolves once every change so far is in the journal (and fsynced with `fsync`). */
  flush(): Promise<void>;
}

/** The mock without a socket: answers fetch `Request`s in-process (hono's `app.request()`). */
export interface MockApp {
  /** `input` may be a path such as `/v3/users`; it is resolved against `http://pacu.mock`. */
  request(input: string | URL | Request, init?: RequestInit): Promise<Response>;
  readonly control: MockControl;
  readonly seeded: SeededIds;
  readonly demoClient: MockClient;
  /** `/v3` */
  readonly basePath: string;
  /** Serve this app over HTTP; closing the returned mock closes the app too. */
  listen(): Promise<RunningMock>;
  close(): Promise<void>;
}

/** A mock serving over HTTP. */
export interface RunningMock {
  /** Base URL including /v3, e.g. `http://127.0.0.1:41234/v3`. */
  readonly url: string;
  /** Scheme, host and port; the control API is at `${origin}/__pacu`. */
  readonly origin: string;
  /** Required as `x-pacu-control-token` on /__pacu when set (non-loopback binds, or asked for). */
  readonly controlToken: string | undefined;
  readonly control: MockControl;
  readonly seeded: SeededIds;
  readonly demoClient: MockClient;
  request(input: string | URL | Request, init?: RequestInit): Promise<Response>;
  close(): Promise<void>;
}

/** Options of {@link startMock}; every field is optional. */
export interface MockOptions {
  /** @default 0 (a free port) */
  port?: number;
  /** @default '127.0.0.1' */
  host?: string;
  /** Seed of the seeded users, cards, card transactions, push-to-card payments and merchant account. @default 1 */
  seed?: number;
  /** @default 'real' */
  clock?: ClockMode;
  /** Start of a manual clock, ms since the epoch. @default the time the mock starts */
  clockStart?: number;
  /** @default one demo client, {@link MOCK_DEFAULTS}.clients */
  clients?: MockClient[];
  /** @default the spec's decision, 3600 */
  tokenLifetimeSeconds?: number;
  /** A scenario file (YAML or JSON) or a scenario object. @default the default scenario */
  scenario?: string | Scenario;
  /** Receivers registered at start. @default [] */
  webhooks?: Array<{ url: string; secret: string }>;
  /** @default delays 1 s, 5 s, 30 s, 2 min, 10 min; timeout 5 s; jitter 0.2 */
  webhookRetry?: Partial<WebhookRetry>;
  /** Keep state in this file (a snapshot) and `<file>.journal` across restarts. @default none */
  stateFile?: string;
  /** fsync the journal before answering, so acknowledged changes survive power loss. @default false */
  fsync?: boolean;
  /** Compact the journal into the snapshot once it passes this many bytes. @default 64 MiB */
  compactAfterBytes?: number;
  /** Serve the control API under /__pacu. @default true */
  control?: boolean;
  /**
   * Required as `x-pacu-control-token` on every control request. @default none on a loopback
   * host; on any other host a random token (printed at start)
   */
  controlToken?: string;
  /** Check every response against the spec; one that breaks it becomes a 500 naming the break. @default false */
  selfCheck?: boolean;
  /** @default spec/openapi.yaml as pacu ships it */
  specFile?: string;
  /** Where the mock reports unexpected errors and failed deliveries. @default a line on stderr */
  log?: (line: string) => void;
  /** @default 16384 bytes of request headers */
  maxHeaderSize?: number;
  /** Time a client has to send its headers. @default 10000 */
  headersTimeoutMs?: number;
  /** Time a client has to send its whole request. @default 30000 */
  requestTimeoutMs?: number;
}

/** Options with every default filled in, resolved once at the boundary. */
export type ResolvedMockOptions = Required<
  Omit<MockOptions, 'stateFile' | 'clockStart' | 'tokenLifetimeSeconds' | 'webhookRetry' | 'controlToken'>
> & {
  stateFile: string | undefined;
  clockStart: number | undefined;
  tokenLifetimeSeconds: number | undefined;
  controlToken: string | undefined;
  webhookRetry: WebhookRetry;
};
