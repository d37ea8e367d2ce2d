import { DEFAULT_SPEC_FILE, type Scope } from '../spec/index.ts';
import type { ClockMode } from './internal/clock.ts';
import { DEFAULT_SCENARIO } from './internal/default-scenario.ts';
import type { Scenario } from './internal/scenario.ts';
import type { WebhookRetry } from './internal/webhooks.ts';

/** An OAuth client of the mock (client-credentials grant). */
export interface MockClient {
  clientId: string;
  clientSecret: string;
  scopes: Scope[];
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
  /** Keep state in this file across restarts. @default none (state lives in memory) */
  stateFile?: string;
  /** How long after a change the state file is written. @default 1000 */
  stateFlushMs?: number;
  /** Serve the control API under /__pacu. @default true */
  control?: boolean;
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
  Omit<MockOptions, 'stateFile' | 'clockStart' | 'tokenLifetimeSeconds' | 'webhookRetry'>
> & {
  stateFile: string | undefined;
  clockStart: number | undefined;
  tokenLifetimeSeconds: number | undefined;
  webhookRetry: WebhookRetry;
};

/** The defaults of {@link MockOptions}. */
export const MOCK_DEFAULTS = {
  port: 0,
  host: '127.0.0.1',
  seed: 1,
  clock: 'real',
  clients: [{ clientId: 'pacu-demo', clientSecret: 'pacu-demo-secret', scopes: ['card', 'us_account'] }],
  scenario: DEFAULT_SCENARIO,
  webhooks: [],
  webhookRetry: { delaysMs: [1000, 5000, 30_000, 120_000, 600_000], timeoutMs: 5000, jitter: 0.2 },
  stateFlushMs: 1000,
  control: true,
  selfCheck: false,
  specFile: DEFAULT_SPEC_FILE,
  maxHeaderSize: 16_384,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
} as const satisfies Partial<MockOptions>;

export function resolveOptions(options: MockOptions = {}): ResolvedMockOptions {
  return {
    port: options.port ?? MOCK_DEFAULTS.port,
    host: options.host ?? MOCK_DEFAULTS.host,
    seed: options.seed ?? MOCK_DEFAULTS.seed,
    clock: options.clock ?? MOCK_DEFAULTS.clock,
    clockStart: options.clockStart,
    clients:
      options.clients ?? MOCK_DEFAULTS.clients.map((client) => ({ ...client, scopes: [...client.scopes] })),
    tokenLifetimeSeconds: options.tokenLifetimeSeconds,
    scenario: options.scenario ?? MOCK_DEFAULTS.scenario,
    webhooks: options.webhooks ?? [],
    webhookRetry: {
      ...MOCK_DEFAULTS.webhookRetry,
      delaysMs: [...MOCK_DEFAULTS.webhookRetry.delaysMs],
      ...options.webhookRetry,
    },
    stateFile: options.stateFile,
    stateFlushMs: options.stateFlushMs ?? MOCK_DEFAULTS.stateFlushMs,
    control: options.control ?? MOCK_DEFAULTS.control,
    selfCheck: options.selfCheck ?? MOCK_DEFAULTS.selfCheck,
    specFile: options.specFile ?? MOCK_DEFAULTS.specFile,
    log: options.log ?? ((line) => process.stderr.write(`${line}\n`)),
    maxHeaderSize: options.maxHeaderSize ?? MOCK_DEFAULTS.maxHeaderSize,
    headersTimeoutMs: options.headersTimeoutMs ?? MOCK_DEFAULTS.headersTimeoutMs,
    requestTimeoutMs: options.requestTimeoutMs ?? MOCK_DEFAULTS.requestTimeoutMs,
  };
}
