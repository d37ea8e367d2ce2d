// The mock's public shapes in one place (msw's glossary.ts): index.ts re-exports from here, never
// from internal/, and internal code imports its public types from here too.
// The control protocol's shapes (ids, receivers, attempts, scenarios…) live in spec/ (the suites'
// control client speaks it too); they are named here again so users find every shape in one file.

import type { Har, Redactor, RemoteControl, RequestObserver, Scenario, SeededIds } from '../http/index.ts';
import type { Scope } from '../spec/index.ts';

export type {
  ControlIds,
  DeliveryAttempt,
  FinalStatus,
  PaymentKind,
  PushToCardInput,
  Scenario,
  ScenarioMatch,
  ScenarioRule,
  ScenarioStep,
  SeededIds,
  WebhookEventRecord,
  WebhookReceiver,
} from '../http/index.ts';

/** `real` follows wall time; `manual` stands still until advanced, so tests never sleep. */
export type ClockMode = 'real' | 'manual';

/** An OAuth client of the mock (client-credentials grant). */
export interface MockClient {
  clientId: string;
  clientSecret: string;
  scopes: Scope[];
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

/**
 * The control API in-process: the operations of the control protocol (`http/control-protocol.ts`),
 * which `/__pacu` serves one to one over HTTP, plus what only makes sense in-process. Each answers
 * with a promise, as over HTTP: a shared store answers after a round trip. On the memory and file
 * stores an operation has taken effect when it returns. Bad input rejects.
 */
export interface MockControl extends Omit<RemoteControl, 'dumpState'> {
  /** Resolves once no webhook delivery is in flight (retries waiting on a manual clock do not count). */
  webhooksIdle(): Promise<void>;
  dumpState(): Promise<StateSnapshot>;
  /** Resolves once every change so far is durable (the journal, fsynced with `fsync`; a database commit). */
  flush(): Promise<void>;
}

/** One choice the description leaves open, as a mock made from a recording makes it. */
export interface LearnedChoice {
  /** A stable name, e.g. `basePath`, `record.usdTransfer.account_id`, `refusal.bad-token`. */
  readonly choice: string;
  /** What the choice is about, in words. */
  readonly about: string;
  /** The value the mock uses, as data. */
  readonly value: unknown;
  /** The value in words, as the summary shows it. */
  readonly shown: string;
  /** `recording`: learned from the exchanges in `entries`; `default`: the recording showed nothing of it, pacu's decision holds. */
  readonly from: 'recording' | 'default';
  /**
   * The recorded exchanges it came from, numbered from 1 in recorded order; for a default, the ones
   * that were too few or disagreed (`shown` says so), else none.
   */
  readonly entries: readonly number[];
}

/** A remark on recorded exchanges (numbered from 1). */
export interface LearnedNote {
  readonly entries: readonly number[];
  readonly what: string;
}

/** What `pacu mock --from-recording` learned of a sandbox, and what it did not. */
export interface LearnedReport {
  readonly format: 'pacu-learned';
  readonly version: 1;
  /** The recording's file, or `(options.fromRecording)`. */
  readonly recording: string;
  /** How many exchanges it holds. */
  readonly exchanges: number;
  readonly choices: readonly LearnedChoice[];
  /** Recorded answers that contradict the description: reported, never learned. */
  readonly contradictions: readonly LearnedNote[];
  /** What the recording showed that the mock does not reproduce, and why. */
  readonly unlearned: readonly LearnedNote[];
}

/** The mock without a socket: answers fetch `Request`s in-process (hono's `app.request()`). */
export interface MockApp {
  /** `input` may be a path such as `/v3/users`; it is resolved against `http://pacu.mock`. */
  request(input: string | URL | Request, init?: RequestInit): Promise<Response>;
  readonly control: MockControl;
  readonly seeded: SeededIds;
  readonly demoClient: MockClient;
  /** `/v3`, or the base path a recording showed (`/sandbox/v3`). */
  readonly basePath: string;
  /** With `fromRecording`: what was learned from it, and what was not. */
  readonly learned: LearnedReport | undefined;
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
  /** With `fromRecording`: what was learned from it, and what was not. */
  readonly learned: LearnedReport | undefined;
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
  /**
   * Where the state lives: `memory:` (this process), or `postgres://USER@HOST:PORT/DB`, one
   * database that N mocks serve as one (tokens, records, the clock, faults, the journal, due work
   * and webhook deliveries shared). The library reads no environment; `pacu mock` reads PACU_STORE.
   * @default 'memory:' (or the state file, with `stateFile`)
   */
  store?: string;
  /** With a database store: empty it first (every table), then seed it again. @default false */
  resetStore?: boolean;
  /**
   * Forget payments and accounts clients made once they are older than this (ms of mock time) and
   * more than `retainRecords` newer ones of their kind exist; journal rows likewise. `Infinity`
   * keeps everything. @default 900000 (15 minutes)
   */
  retain?: number;
  /** However old, the newest this many of each kind stay. @default 10000 */
  retainRecords?: number;
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
  /**
   * Behave like the sandbox a recording (a HAR file, or one read already) was made of: serve its
   * records and make every choice the description leaves open that the traffic shows (see
   * {@link MockApp.learned}); what it never showed stays pacu's. @default none
   */
  fromRecording?: string | Har;
  /** Where the mock reports unexpected errors and failed deliveries. @default a line on stderr */
  log?: (line: string) => void;
  /** How many requests the request journal (`GET /__pacu/requests`) keeps, newest last. @default 1000 */
  journalSize?: number;
  /** @default 16384 bytes of request headers */
  maxHeaderSize?: number;
  /** Time a client has to send its headers. @default 10000 */
  headersTimeoutMs?: number;
  /** Time a client has to send its whole request. @default 30000 */
  requestTimeoutMs?: number;
  /** More watchers of every request on the interface, beside the journal and coverage. @default [] */
  observers?: readonly RequestObserver[];
  /**
   * Record every exchange on the interface in this HAR 1.2 file, as `pacu proxy --record` does
   * (0600, credentials redacted, each exchange written before its answer leaves; an existing pacu
   * recording is continued). @default none
   */
  record?: string;
  /** Header names whose values are credentials, beside those the redactor knows. @default [] */
  redactHeaders?: readonly string[];
  /** JSON or form field names whose values are credentials, beside those the redactor knows. @default [] */
  redactFields?: readonly string[];
  /**
   * Show card numbers and CVVs as they came in the recording and the request journal.
   * @default false: a CVV is removed, a card number masked to its first six and last four digits
   */
  keepCardData?: boolean;
  /**
   * Watchers that judge the mock's traffic and show what they find (`pacu mock --findings`): made
   * with the mock's one redactor, so what they show is redacted by its policy and what it learned.
   * @default none
   */
  judge?: (redactor: Redactor) => readonly RequestObserver[];
}

/** Options with every default filled in, resolved once at the boundary. */
export type ResolvedMockOptions = Required<
  Omit<
    MockOptions,
    | 'stateFile'
    | 'clockStart'
    | 'tokenLifetimeSeconds'
    | 'webhookRetry'
    | 'controlToken'
    | 'fromRecording'
    | 'record'
    | 'store'
    | 'judge'
  >
> & {
  store: string | undefined;
  record: string | undefined;
  judge: ((redactor: Redactor) => readonly RequestObserver[]) | undefined;
  fromRecording: string | Har | undefined;
  stateFile: string | undefined;
  clockStart: number | undefined;
  tokenLifetimeSeconds: number | undefined;
  controlToken: string | undefined;
  webhookRetry: WebhookRetry;
};
