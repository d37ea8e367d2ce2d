import { FRONT_DOOR_DEFAULTS } from '../http/index.ts';
import { DEFAULT_SPEC_FILE, SCOPES } from '../spec/index.ts';
import { DEFAULT_SCENARIO } from './default-scenario.ts';
import type { MockOptions, ResolvedMockOptions } from './types.ts';

/** The defaults of {@link MockOptions}. */
export const MOCK_DEFAULTS = {
  port: 0,
  host: '127.0.0.1',
  seed: 1,
  clock: 'real',
  clients: [{ clientId: 'pacu-demo', clientSecret: 'pacu-demo-secret', scopes: [...SCOPES] }],
  scenario: DEFAULT_SCENARIO,
  webhooks: [],
  webhookRetry: { delaysMs: [1000, 5000, 30_000, 120_000, 600_000], timeoutMs: 5000, jitter: 0.2 },
  fsync: false,
  resetStore: false,
  retain: 15 * 60_000,
  retainRecords: 10_000,
  compactAfterBytes: 64 * 1024 * 1024,
  control: true,
  selfCheck: false,
  specFile: DEFAULT_SPEC_FILE,
  journalSize: 1000,
  maxHeaderSize: FRONT_DOOR_DEFAULTS.maxHeaderSize,
  headersTimeoutMs: FRONT_DOOR_DEFAULTS.headersTimeoutMs,
  requestTimeoutMs: FRONT_DOOR_DEFAULTS.requestTimeoutMs,
  observers: [],
  redactHeaders: [],
  redactFields: [],
  keepCardData: false,
} as const satisfies Partial<MockOptions>;

/** Fill in every default, once, at the boundary. */
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
    store: options.store === 'memory:' ? undefined : options.store,
    resetStore: options.resetStore ?? MOCK_DEFAULTS.resetStore,
    retain: options.retain ?? MOCK_DEFAULTS.retain,
    retainRecords: options.retainRecords ?? MOCK_DEFAULTS.retainRecords,
    fsync: options.fsync ?? MOCK_DEFAULTS.fsync,
    compactAfterBytes: options.compactAfterBytes ?? MOCK_DEFAULTS.compactAfterBytes,
    controlToken: options.controlToken,
    control: options.control ?? MOCK_DEFAULTS.control,
    selfCheck: options.selfCheck ?? MOCK_DEFAULTS.selfCheck,
    specFile: options.specFile ?? MOCK_DEFAULTS.specFile,
    fromRecording: options.fromRecording,
    log: options.log ?? ((line) => process.stderr.write(`${line}\n`)),
    journalSize: options.journalSize ?? MOCK_DEFAULTS.journalSize,
    maxHeaderSize: options.maxHeaderSize ?? MOCK_DEFAULTS.maxHeaderSize,
    headersTimeoutMs: options.headersTimeoutMs ?? MOCK_DEFAULTS.headersTimeoutMs,
    requestTimeoutMs: options.requestTimeoutMs ?? MOCK_DEFAULTS.requestTimeoutMs,
    observers: [...(options.observers ?? MOCK_DEFAULTS.observers)],
    record: options.record,
    redactHeaders: [...(options.redactHeaders ?? MOCK_DEFAULTS.redactHeaders)],
    redactFields: [...(options.redactFields ?? MOCK_DEFAULTS.redactFields)],
    keepCardData: options.keepCardData ?? MOCK_DEFAULTS.keepCardData,
    judge: options.judge,
  };
}
