import { accessSync, constants, existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { type Command, InvalidArgumentError, Option } from 'commander';
import { type Redactor, type RequestObserver, webhookSecretProblem } from '../http/index.ts';
import {
  MOCK_DEFAULTS,
  type MockClient,
  type MockOptions,
  type RunningMock,
  startMock,
} from '../mock/index.ts';
import { ConfigError, loadSpec, type Profile, SCOPES } from '../spec/index.ts';
import type { CliIo, CommandOutcome } from './cli-io.ts';
import { findingLine } from './finding-line.ts';
import { collect, httpUrl, wholeNumber as integer } from './option-parsers.ts';
import { profileOption } from './profile-option.ts';
import { assertRecordingTeaches } from './recording-to-learn.ts';
import {
  addCardDataOption,
  addRedactionOptions,
  type RedactionNames,
  redactionOf,
} from './redaction-options.ts';
import { coverageFormat, writeCoverageReport } from './reporters/coverage-report.ts';
import { learnedCounts, learnedSummary, writeLearnedReport } from './reporters/learned-report.ts';
import { serveUntilStopped } from './serve-until-stopped.ts';

interface MockCommandOptions extends RedactionNames {
  port: number;
  host: string;
  seed: number;
  clock: 'real' | 'manual';
  scenario?: string;
  webhookUrl: string[];
  webhookSecret: string[];
  state?: string;
  store?: string;
  resetStore?: boolean;
  retain?: number;
  control: boolean;
  json?: boolean;
  tokenLifetime?: number;
  client: string[];
  selfCheck?: boolean;
  coverageReport?: string;
  journalSize?: number;
  fsync?: boolean;
  controlToken?: string;
  webhookRetry?: number[];
  fromRecording?: string;
  record?: string;
  findings?: boolean;
  profile: Profile;
  learned?: string;
}

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** `1s,5s,30s,2m,10m` (units ms, s, m, h; a bare number is ms), or `none` for no retries. */
export function parseRetrySchedule(text: string): number[] {
  if (text.trim() === 'none') return [];
  return text.split(',').map((part) => {
    const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h)?\s*$/.exec(part);
    const value = match ? Number(match[1]) * (UNITS[match[2] ?? 'ms'] ?? 1) : Number.NaN;
    if (!Number.isFinite(value) || value > 7 * 24 * 3_600_000) {
      throw new InvalidArgumentError(
        `--webhook-retry takes delays such as 1s,5s,30s,2m,10m (ms, s, m, h; at most a week each) or none, not ${part}`,
      );
    }
    return Math.round(value);
  });
}

/** `--retain 24h` (ms, s, m, h, d), or `none` to keep everything. */
export function parseRetention(text: string): number {
  if (text.trim() === 'none') return Number.POSITIVE_INFINITY;
  const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)\s*$/.exec(text);
  const value = match ? Number(match[1]) * ({ ...UNITS, d: 86_400_000 }[match[2] ?? ''] ?? 1) : Number.NaN;
  if (!Number.isFinite(value) || value <= 0)
    throw new InvalidArgumentError(`--retain takes a duration such as 15m, 24h or 7d, or none, not ${text}`);
  return Math.round(value);
}

/** `id:secret` or `id:secret:scope,scope` (all scopes when left out). */
function parseClient(text: string): MockClient {
  const [clientId = '', clientSecret = '', scopes] = text.split(':');
  if (!clientId || !clientSecret)
    throw new ConfigError(`pacu: --client ${text}: expected id:secret or id:secret:card,us_account`);
  const list = scopes ? scopes.split(',') : [...SCOPES];
  if (list.some((scope) => !(SCOPES as readonly string[]).includes(scope))) {
    throw new ConfigError(`pacu: --client ${text}: scopes are ${SCOPES.join(' and ')}`);
  }
  return { clientId, clientSecret, scopes: list as MockClient['scopes'] };
}

/** Pair each --webhook-url with the --webhook-secret at the same position (one secret serves all). */
function receivers(urls: string[], secrets: string[]): Array<{ url: string; secret: string }> {
  if (urls.length === 0 && secrets.length > 0)
    throw new ConfigError('pacu: --webhook-secret signs deliveries to a --webhook-url: give the URL too');
  if (urls.length > 0 && secrets.length !== urls.length && secrets.length !== 1) {
    throw new ConfigError('pacu: give one --webhook-secret, or one per --webhook-url');
  }
  if (urls.length > 0 && secrets.length === 0)
    throw new ConfigError(
      'pacu: --webhook-url needs --webhook-secret whsec_… (the secret the receiver verifies with)',
    );
  for (const secret of secrets) {
    const problem = webhookSecretProblem(secret);
    if (problem) throw new ConfigError(`pacu: --webhook-secret ${problem}`);
  }
  return urls.map((url, index) => ({ url, secret: secrets[index] ?? secrets[0] ?? '' }));
}

/**
 * The state file and its journal must be writable now: a mock that starts and then cannot keep what
 * it acknowledged would break its one promise about state.
 */
function assertStateWritable(file: string): void {
  const folder = path.dirname(path.resolve(file));
  for (const candidate of [file, `${file}.journal`]) {
    const target = existsSync(candidate) ? candidate : folder;
    try {
      if (existsSync(candidate) && statSync(candidate).isDirectory()) throw new Error('EISDIR');
      accessSync(target, constants.W_OK);
    } catch (cause) {
      const reason = existsSync(folder)
        ? ((cause as NodeJS.ErrnoException).code ?? (cause as Error).message)
        : 'its folder does not exist';
      throw new ConfigError(`pacu: --state ${file} cannot be written: ${reason}`, { cause });
    }
  }
}

function describe(mock: RunningMock): Record<string, unknown> {
  return {
    url: mock.url,
    // The process that serves (a launcher may stand in front of it): what a crash drill kills.
    pid: process.pid,
    control: `${mock.origin}/__pacu`,
    clientId: mock.demoClient.clientId,
    clientSecret: mock.demoClient.clientSecret,
    scopes: mock.demoClient.scopes,
    ...(mock.controlToken ? { controlToken: mock.controlToken } : {}),
    ...mock.seeded,
  };
}

/** The ready line (or the one JSON line): what a user, or a script, reads to start using the mock. */
function announce(io: CliIo, mock: RunningMock, json: boolean, learnedFile?: string): RunningMock {
  const summary = describe(mock);
  const { learned } = mock;
  if (json)
    io.stdout(`${JSON.stringify({ ...summary, ...(learned ? { learned: learnedCounts(learned) } : {}) })}\n`);
  else {
    io.stdout(`pacu mock listening on ${mock.url}\n`);
    for (const [key, value] of Object.entries(summary).slice(1))
      io.stdout(`  ${key.padEnd(18)} ${String(value)}\n`);
    if (learned) for (const line of learnedSummary(learned)) io.stdout(`${line}\n`);
    if (learned && learnedFile) io.stdout(`  ${'all of it'.padEnd(13)} ${learnedFile}\n`);
    io.stdout('Stop with Ctrl-C.\n');
  }
  return mock;
}

/**
 * The judge of `pacu proxy` on the mock's own traffic (`--findings`), under `--profile`: what the
 * client sends that the description does not allow, as a line on stderr when it happens. It watches
 * with the mock's one redactor, which learns each exchange's credentials before a finding shows any.
 */
async function findingJudge(
  profile: Profile,
  io: CliIo,
): Promise<(redactor: Redactor) => readonly RequestObserver[]> {
  // The judge and its rules load only when asked for: a plain `pacu mock` starts without them.
  const [spec, { createFindingLog, createJudgeObserver, createStateObserver }] = await Promise.all([
    loadSpec(),
    import('../suites/index.ts'),
  ]);
  return (redactor) => {
    const findings = createFindingLog(redactor, (finding) => io.stderr(`${findingLine(finding)}\n`));
    return [createJudgeObserver({ spec, profile, findings }), createStateObserver({ spec, findings })];
  };
}

/** `pacu mock`: the stateful mock provider, until SIGINT or SIGTERM. */
export function registerMockCommand(program: Command, io: CliIo, _outcome: CommandOutcome): void {
  const command = program
    .command('mock')
    .description(
      'run the stateful mock of the whole interface (base URL, demo client and seeded ids are printed)',
    )
    .option(
      '--port <port>',
      'port to listen on (0: a free one)',
      integer('--port', 0, 65535),
      MOCK_DEFAULTS.port,
    )
    .option('--host <host>', 'address to listen on', MOCK_DEFAULTS.host)
    .option('--seed <n>', 'seed of the seeded data', integer('--seed', 0, 2 ** 32 - 1), MOCK_DEFAULTS.seed)
    .addOption(
      new Option('--clock <mode>', 'real time, or manual (advanced via the control API)')
        .choices(['real', 'manual'])
        .default(MOCK_DEFAULTS.clock),
    )
    .option('--scenario <file>', 'lifecycle scenario (YAML or JSON); default: the built-in scenario')
    .option(
      '--webhook-url <url>',
      'webhook receiver (repeatable)',
      (value: string, previous: string[]) => collect(httpUrl('--webhook-url')(value), previous),
      [],
    )
    .option(
      '--webhook-secret <secret>',
      'its signing secret, whsec_<base64> (repeatable, paired by position)',
      collect,
      [],
    )
    .option(
      '--from-recording <file>',
      'behave like the sandbox a HAR recording (pacu proxy --record, pacu record) was made of: its records, and every choice the description leaves open that it shows',
    )
    .option(
      '--learned <file>',
      'with --from-recording: write every choice learned, with the exchanges it came from (.json, or .md)',
    )
    .option('--state <file>', 'keep state in this file (a snapshot) and <file>.journal across restarts')
    .option('--fsync', 'with --state: fsync the journal before each answer, so it survives power loss too')
    .addOption(
      new Option(
        '--store <url>',
        'where the state lives: memory: (this process), or postgres://USER@HOST:PORT/DB, one database N mocks serve as one (its control API then needs the control token)',
      ).env('PACU_STORE'),
    )
    .option('--reset-store', 'with --store: empty the database first (every table), then seed it again')
    .option(
      '--retain <duration>',
      `forget payments and accounts clients made once older than this on the mock clock (e.g. 24h; none keeps all), keeping the newest ${MOCK_DEFAULTS.retainRecords} of each kind (default ${MOCK_DEFAULTS.retain / 60_000}m)`,
      parseRetention,
    )
    .option('--no-control', 'do not serve the control API under /__pacu')
    .option(
      '--control-token <token>',
      'require this x-pacu-control-token on /__pacu (default: none on loopback, a printed random one elsewhere or with --store; give every replica the same)',
    )
    .option(
      '--webhook-retry <delays>',
      'webhook retry delays on the mock clock, e.g. 1s,5s,30s,2m,10m (the default), or none',
      parseRetrySchedule,
    )
    .option('--json', 'print one JSON line instead of text')
    .option('--token-lifetime <seconds>', 'access token lifetime', integer('--token-lifetime', 1, 31_536_000))
    .option(
      '--client <id:secret[:scopes]>',
      'OAuth client (repeatable; the first is printed; default: a demo client)',
      collect,
      [],
    )
    .option('--self-check', 'answer 500 when a response would break the spec')
    .option('--coverage-report <file>', 'on shutdown, write what the traffic reached (.json, .md or .html)')
    .option(
      '--journal-size <n>',
      `requests the journal keeps (default ${MOCK_DEFAULTS.journalSize})`,
      integer('--journal-size', 1, 1_000_000),
    )
    .option(
      '--record <file.har>',
      'record every exchange as HAR 1.2, each before its answer leaves (0600, credentials redacted; a pacu recording is continued)',
    )
    .option(
      '--findings',
      'judge every exchange as pacu proxy does: a line on stderr for each request the description does not allow',
    )
    .addOption(
      profileOption(
        'documented',
        'with --findings, what judges: documented, the description only; strict, pacu decisions too',
      ),
    );
  addCardDataOption(addRedactionOptions(command)).action(async (options: MockCommandOptions) => {
    if (options.state) assertStateWritable(options.state);
    if (options.resetStore && !options.store)
      throw new ConfigError(
        'pacu: --reset-store empties the database of --store URL (or PACU_STORE): give it too',
      );
    if (options.learned && !options.fromRecording)
      throw new ConfigError(
        'pacu: --learned says what a recording taught the mock: give --from-recording FILE too',
      );
    // A report that cannot be written is a usage error now, not a surprise at shutdown.
    if (options.coverageReport) coverageFormat(options.coverageReport);
    if (options.fromRecording) await assertRecordingTeaches(options.fromRecording);
    const mockOptions: MockOptions = {
      port: options.port,
      host: options.host,
      seed: options.seed,
      clock: options.clock,
      control: options.control,
      selfCheck: options.selfCheck ?? false,
      fsync: options.fsync ?? false,
      ...(options.controlToken ? { controlToken: options.controlToken } : {}),
      ...(options.webhookRetry ? { webhookRetry: { delaysMs: options.webhookRetry } } : {}),
      webhooks: receivers(options.webhookUrl, options.webhookSecret),
      ...(options.scenario ? { scenario: options.scenario } : {}),
      ...(options.state ? { stateFile: options.state } : {}),
      ...(options.store ? { store: options.store } : {}),
      ...(options.resetStore ? { resetStore: true } : {}),
      ...(options.retain !== undefined ? { retain: options.retain } : {}),
      ...(options.fromRecording ? { fromRecording: options.fromRecording } : {}),
      ...(options.tokenLifetime ? { tokenLifetimeSeconds: options.tokenLifetime } : {}),
      ...(options.journalSize ? { journalSize: options.journalSize } : {}),
      ...(options.client.length > 0 ? { clients: options.client.map(parseClient) } : {}),
      ...(options.record ? { record: options.record } : {}),
      ...redactionOf(options),
      log: (line) => io.stderr(`${line.startsWith('pacu') ? line : `pacu mock: ${line}`}\n`),
    };
    if (options.findings) mockOptions.judge = await findingJudge(options.profile, io);
    await serveUntilStopped(
      {
        name: 'mock',
        start: async () => {
          const mock = await startMock(mockOptions);
          if (mock.learned && options.learned)
            await writeLearnedReport(options.learned, mock.learned).catch(async (error: unknown) => {
              await mock.close();
              throw error;
            });
          return announce(io, mock, options.json === true, options.learned);
        },
        stop: async (mock) => {
          // Graceful: the server finishes requests in flight, then state is flushed.
          await mock.close();
          if (options.coverageReport) {
            await writeCoverageReport(options.coverageReport, await mock.control.coverage());
            io.stderr(`pacu mock: coverage written to ${options.coverageReport}\n`);
          }
        },
      },
      io,
    );
  });
}
