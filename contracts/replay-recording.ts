import { randomBytes } from 'node:crypto';
import { type Har, type RoutedExchange, routeHar } from '../http/index.ts';
import { ConfigError, loadSpec, type Profile } from '../spec/index.ts';
import {
  type ApiClient,
  type ApiRequest,
  type ApiResponse,
  buildReport,
  createApiClient,
  type Report,
  type ResultDraft,
  type TargetConfig,
  targetRedactor,
} from '../suites/index.ts';
import { replayDrift } from './replay-judge.ts';
import { freshReference, needsFreshToken, type ReplayState, replayRequest } from './replay-request.ts';

export interface ReplayOptions {
  /** The recording (`pacu proxy --record`, or any HAR whose credentials are redacted). */
  readonly recording: Har;
  /** Where to replay it and with which client; the recorded credentials are never sent. */
  readonly target: TargetConfig;
  /** Send the recorded references as they are: the target must answer with the recorded transfers. @default false */
  readonly sameReferences?: boolean;
  /** @default 'documented' */
  readonly profile?: Profile;
  /** @default spec/openapi.yaml as pacu ships it */
  readonly specFile?: string;
  /** Names the recording in the report (its file). @default 'recording' */
  readonly source?: string;
}

/** The defaults of {@link ReplayOptions}. */
export const REPLAY_DEFAULTS = {
  sameReferences: false,
  profile: 'documented',
  source: 'recording',
} as const satisfies Partial<ReplayOptions>;

interface ResolvedReplay {
  readonly recording: Har;
  readonly target: TargetConfig;
  readonly clientId: string;
  readonly clientSecret: string;
  readonly sameReferences: boolean;
  readonly profile: Profile;
  readonly specFile: string | undefined;
  readonly source: string;
}

function resolve(options: ReplayOptions): ResolvedReplay {
  const { clientId, clientSecret } = options.target;
  if (!clientId || !clientSecret)
    throw new ConfigError(
      'pacu: replay gets fresh tokens with client credentials: give --client-id and --client-secret (or PACU_CLIENT_ID and PACU_CLIENT_SECRET)',
    );
  if (options.recording.log.entries.length === 0)
    throw new ConfigError(`pacu: ${options.source ?? 'the recording'} has no exchanges to replay`);
  return {
    recording: options.recording,
    target: options.target,
    clientId,
    clientSecret,
    sameReferences: options.sameReferences ?? REPLAY_DEFAULTS.sameReferences,
    profile: options.profile ?? REPLAY_DEFAULTS.profile,
    specFile: options.specFile,
    source: options.source ?? REPLAY_DEFAULTS.source,
  };
}

/** A token for requests recorded with one before the recording obtained any (a recording cut short). */
async function firstToken(api: ApiClient, run: ResolvedReplay): Promise<string | undefined> {
  const answer = await api.getAccessToken({
    clientId: run.clientId,
    clientSecret: run.clientSecret,
    scope: run.target.scopes.join(','),
  });
  const token = (answer.json as { data?: { access_token?: unknown } } | undefined)?.data?.access_token;
  return typeof token === 'string' ? token : undefined;
}

/** Whether some read of a recorded record came back refused: a target without the recording's fixtures. */
function missingRecords(results: readonly ResultDraft[], recording: Har): boolean {
  return results.some((result, index) => {
    const entry = recording.log.entries[index];
    return (
      entry?.request.method.toUpperCase() === 'GET' &&
      entry.response.status === 200 &&
      /^status 4\d\d,/.test(result.failure?.reason ?? '')
    );
  });
}

function rowOf(
  exchange: RoutedExchange,
  sent: ApiRequest,
  response: ApiResponse,
  reasons: readonly string[],
  profile: Profile,
): ResultDraft {
  const number = String(exchange.index + 1).padStart(3, '0');
  const operation = exchange.operation?.id ?? 'unknown';
  const id = `replay.${number}.${operation}`;
  return {
    id,
    category: 'contract',
    operation,
    profile,
    status: reasons.length > 0 ? 'failed' : 'passed',
    runs: 1,
    durationMs: response.durationMs,
    title: `entry ${exchange.index + 1}: ${exchange.entry.request.method} ${exchange.path}, recorded ${exchange.entry.response.status}`,
    ...(reasons.length > 0
      ? { failure: { id: `${id}/${operation}`, reason: reasons.join('\n'), request: sent, response } }
      : {}),
  };
}

/** A recorded exchange with no whole answer (`_error`): nothing to compare with, so not sent again. */
function unanswered(exchange: RoutedExchange, profile: Profile): ResultDraft {
  const operation = exchange.operation?.id ?? 'unknown';
  return {
    id: `replay.${String(exchange.index + 1).padStart(3, '0')}.${operation}`,
    category: 'contract',
    operation,
    profile,
    status: 'skipped',
    runs: 0,
    durationMs: 0,
    title: `entry ${exchange.index + 1}: ${exchange.entry.request.method} ${exchange.path}`,
    skipReason: `the recording holds no whole answer (${exchange.error}): not sent again`,
  };
}

/**
 * Send a recording's requests to a target again, in order, and report how each answer drifted from
 * the recorded one (see `replayDrift`): one contract row per exchange, through the same report
 * pipeline as `pacu check` (redacted, with curl lines). Fresh tokens come from the target's token
 * endpoint with the given client; recorded references get a fresh suffix unless `sameReferences`.
 *
 * @example
 * const report = await replayRecording({ recording: await readHar('sandbox.har'), target });
 * if (report.summary.failed > 0) console.log('the provider drifted');
 */
export async function replayRecording(options: ReplayOptions): Promise<Report> {
  const run = resolve(options);
  const spec = await loadSpec(run.specFile);
  const startedAt = new Date();
  const redactor = targetRedactor(run.target);
  const api = createApiClient({
    baseUrl: run.target.baseUrl,
    connections: 1,
    observe: (response) => redactor.observe(response),
    ...(run.target.headers ? { headers: run.target.headers } : {}),
    ...(run.target.timeoutMs !== undefined ? { timeoutMs: run.target.timeoutMs } : {}),
  });
  const tag = randomBytes(5).toString('hex');
  const state: ReplayState = {
    ids: new Map(),
    recordedIds: new Map(),
    references: new Map(),
    token: undefined,
  };
  const results: ResultDraft[] = [];
  try {
    for (const exchange of routeHar(spec, run.recording)) {
      if (exchange.error !== undefined) {
        results.push(unanswered(exchange, run.profile));
        continue;
      }
      const reference = (exchange.requestJson as { reference?: unknown } | undefined)?.reference;
      if (exchange.operation?.id === 'usdTransfer' && typeof reference === 'string' && !run.sameReferences)
        if (!state.references.has(reference)) state.references.set(reference, freshReference(reference, tag));
      if (state.token === undefined && needsFreshToken(exchange)) state.token = await firstToken(api, run);
      const sent = replayRequest(exchange, state, run);
      const response = await api.send(sent);
      const issued = (response.json as { data?: { access_token?: unknown } } | undefined)?.data?.access_token;
      if (exchange.operation?.id === 'getAccessToken' && typeof issued === 'string') state.token = issued;
      const reasons = replayDrift({
        spec,
        profile: run.profile,
        exchange,
        sent,
        response,
        state,
        sameReferences: run.sameReferences,
      });
      results.push(rowOf(exchange, sent, response, reasons, run.profile));
    }
  } finally {
    await api.close();
  }
  return buildReport({
    command: 'replay',
    target: run.target.baseUrl,
    baseUrl: run.target.baseUrl,
    seed: 0,
    profile: run.profile,
    startedAt,
    results,
    redactor,
    notes: [
      `replayed ${results.length} exchanges of ${run.source}${run.sameReferences ? ' with the recorded references' : `; references end in -${tag}`}`,
      ...(missingRecords(results, run.recording)
        ? [
            `reads the recording answered 200 were refused: the target lacks the recording's records (replay against the sandbox it was recorded on, or start \`pacu mock --from-recording ${run.source}\`)`,
          ]
        : []),
    ],
  });
}
