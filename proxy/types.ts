import type { FrontDoorLimits, RecordErrors, RequestObserver } from '../http/index.ts';
import type { Profile } from '../spec/index.ts';
import type { ExchangeFinding, ObservedExchange, Report } from '../suites/index.ts';

/** Options of {@link startProxy}; only `upstream` is required. */
export interface ProxyOptions {
  /** The provider's base URL, http or https, ending in `/v3`, e.g. `https://sandbox.example.com/v3`. */
  upstream: string;
  /** PEM file (or PEM text) of a private CA the upstream's certificate is signed by. @default the system's CAs */
  upstreamCa?: string;
  /** How long the upstream may take to start its answer, and between two of its chunks. @default 30000 */
  upstreamTimeoutMs?: number;
  /** @default 0 (a free port) */
  port?: number;
  /** @default '127.0.0.1' */
  host?: string;
  /** Bytes of request line and headers a client may send (then 431). @default 16384 */
  maxHeaderSize?: number;
  /** Time a client has to send its headers (then 408). @default 10000 */
  headersTimeoutMs?: number;
  /** Time a client has to send its whole request (then 408). @default 30000 */
  requestTimeoutMs?: number;
  /** `documented`: what the description states; `strict`: pacu's decisions too. @default 'documented' */
  profile?: Profile;
  /**
   * Record every exchange in this HAR 1.2 file (created 0600, credentials redacted), each written
   * before its answer's last bytes leave; a recording pacu wrote before is continued. @default none
   */
  record?: string;
  /** When a write to `record` fails (a full disk): `serve` records the turns it can and says so once a second; `stop` cuts that turn's answers and stops taking requests (see `halted`). @default 'serve' */
  onRecordError?: RecordErrors;
  /** Show card numbers and CVVs as they came in the recording, findings, reports and control API. @default false: a CVV is removed, a card number masked to its first six and last four digits */
  keepCardData?: boolean;
  /** The client secret, so it is redacted wherever it shows up (recording, findings, control API). @default none */
  clientSecret?: string;
  /** The client id that goes with it (a Basic credential is then shown by name). @default none */
  clientId?: string;
  /** Header names whose values are credentials, beside those the redactor knows. @default [] */
  redactHeaders?: readonly string[];
  /** JSON or form field names whose values are credentials, beside those the redactor knows. @default [] */
  redactFields?: readonly string[];
  /** Called with each finding as it is made (already redacted). @default none */
  onFinding?: (finding: ExchangeFinding) => void;
  /** Watchers of every request (the same interface the mock's journal and coverage implement). @default [] */
  observers?: readonly RequestObserver[];
  /** How many exchanges `exchanges()` and `GET /__pacu/exchanges` keep, newest last (the HAR, with `record`, keeps them all). @default 25 */
  keepExchanges?: number;
  /** Serve `GET /__pacu/exchanges` and `GET /__pacu/findings`. @default true */
  control?: boolean;
  /** Required as `x-pacu-control-token` on the control API. @default none on loopback, a random one elsewhere */
  controlToken?: string;
  /** Where unexpected errors go. @default a line on stderr */
  log?: (line: string) => void;
}

/** Options with every default filled in, resolved once. */
export interface ResolvedProxyOptions {
  readonly upstream: URL;
  readonly upstreamCa: string | undefined;
  readonly upstreamTimeoutMs: number;
  readonly port: number;
  readonly host: string;
  /** The front door's limits (http/front-door.ts). */
  readonly limits: FrontDoorLimits;
  readonly profile: Profile;
  readonly record: string | undefined;
  readonly onRecordError: RecordErrors;
  readonly keepCardData: boolean;
  readonly clientSecret: string | undefined;
  readonly clientId: string | undefined;
  readonly redactHeaders: readonly string[];
  readonly redactFields: readonly string[];
  readonly onFinding: ((finding: ExchangeFinding) => void) | undefined;
  readonly observers: readonly RequestObserver[];
  readonly keepExchanges: number;
  readonly control: boolean;
  readonly controlToken: string | undefined;
  readonly log: (line: string) => void;
}

/** A running proxy. */
export interface RunningProxy {
  /** The proxy's own base URL, ending in `/v3`: point the client here. */
  readonly url: string;
  readonly origin: string;
  /** The upstream base URL it forwards to. */
  readonly upstream: string;
  /** Set when the control API needs `x-pacu-control-token`. */
  readonly controlToken: string | undefined;
  /** Every finding so far, oldest first, each with its exchange (credentials redacted). */
  findings(): ExchangeFinding[];
  /** The last exchanges (see `keepExchanges`), oldest first, credentials redacted. */
  exchanges(): ObservedExchange[];
  /**
   * How many exchanges were judged, how many were recorded (by this proxy: a continued file holds
   * more), and how many were answered but not recorded (a write failed).
   */
  counts(): { readonly exchanges: number; readonly recorded: number; readonly notRecorded: number };
  /** Resolves with the error when the proxy stopped taking requests on its own (`onRecordError: 'stop'`). */
  readonly halted: Promise<Error>;
  /** What the proxy saw so far as a report (`command: 'proxy'`), for the reporters of `pacu check`. */
  report(): Report;
  /** Stop listening (requests in flight finish), then close the recording. */
  close(): Promise<void>;
}
