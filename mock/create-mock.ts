import { createHash, randomBytes } from 'node:crypto';
import {
  asHar,
  createSurfaceRedactor,
  FRONT_DOOR_DEFAULTS,
  type Har,
  IN_PROCESS_HOST,
  openSurfaceKit,
  readHar,
  type SurfaceKit,
} from '../http/index.ts';
import { ConfigError, loadSpec, type Spec } from '../spec/index.ts';
import { DEFAULT_SCENARIO } from './default-scenario.ts';
import { deferRequestCheck } from './deferred-request-check.ts';
import { createApiHandler } from './internal/app.ts';
import { type Behaviour, pacuBehaviour } from './internal/behaviour.ts';
import { collectStartGarbage } from './internal/collect-garbage.ts';
import { createConsumerLayer } from './internal/consumer-layer.ts';
import type { MockContext } from './internal/context.ts';
import { createControl, installScenarioFaults } from './internal/control.ts';
import { createControlHandler } from './internal/control-api.ts';
import { createControlGuard, isLoopbackHost } from './internal/control-guard.ts';
import { replyText } from './internal/envelope.ts';
import { type CheckedExchange, checkRecording, recordedState } from './internal/from-recording.ts';
import { listen } from './internal/http-server.ts';
import type { MockReply, MockRequest } from './internal/http-types.ts';
import { withLearnedLifecycles } from './internal/learn/learn-lifecycle.ts';
import { learnFromRecording } from './internal/learn/learn-recording.ts';
import { createRequestCore } from './internal/request-core.ts';
import { readKeys } from './internal/request-reads.ts';
import { seedState } from './internal/seed.ts';
import type { MockState } from './internal/state.ts';
import { openStore } from './internal/store/open-store.ts';
import { resolveOptions } from './options.ts';
import { loadScenarioFile, validateScenario } from './scenario.ts';
import type {
  LearnedReport,
  MockApp,
  MockClient,
  MockOptions,
  ResolvedMockOptions,
  RunningMock,
  Scenario,
} from './types.ts';

interface Beginning {
  /** The state the mock starts from and a plain reset returns to: a recording's, else the seed's. */
  readonly initialState: () => MockState;
  readonly recording?: { readonly checked: readonly CheckedExchange[]; readonly source: string };
}

async function beginningOf(spec: Spec, resolved: ResolvedMockOptions): Promise<Beginning> {
  const { fromRecording, seed } = resolved;
  if (fromRecording === undefined) return { initialState: () => seedState(seed) };
  const source = typeof fromRecording === 'string' ? fromRecording : '(options.fromRecording)';
  const har: Har =
    typeof fromRecording === 'string' ? await readHar(fromRecording) : asHar(fromRecording, source);
  const checked = checkRecording(spec, har);
  // Built now, so the start pays for it once; each reset builds it afresh.
  let first: MockState | undefined = recordedState(checked, seed);
  return {
    initialState: () => {
      const state = first ?? recordedState(checked, seed);
      first = undefined;
      return state;
    },
    recording: { checked, source },
  };
}

/** pacu's behaviour, or the one a recording teaches (Prism is loaded first: the scratch mock validates). */
async function behaviourOf(
  spec: Spec,
  beginning: Beginning,
  prism: ReturnType<typeof deferRequestCheck>,
  client: MockClient,
  seed: number,
): Promise<{ behaviour: Behaviour; learned: LearnedReport | undefined }> {
  const { recording } = beginning;
  if (!recording) return { behaviour: pacuBehaviour(spec), learned: undefined };
  await prism.load();
  const { behaviour, report } = learnFromRecording({
    spec,
    checked: recording.checked,
    source: recording.source,
    state: () => recordedState(recording.checked, seed),
    client,
    checkRequest: prism.check,
  });
  return { behaviour, learned: report };
}

function resolveScenario(scenario: string | Scenario): Scenario {
  // The built-in scenario is checked by its test, not at every start (Ajv's first compile is costly: decision 093).
  if (scenario === DEFAULT_SCENARIO) return scenario;
  return typeof scenario === 'string'
    ? loadScenarioFile(scenario)
    : validateScenario(scenario, '(options.scenario)');
}

async function toMockRequest(input: string | URL | Request, init?: RequestInit): Promise<MockRequest> {
  const request =
    input instanceof Request ? input : new Request(new URL(String(input), `http://${IN_PROCESS_HOST}`), init);
  const url = new URL(request.url);
  const headers: Record<string, string> = { host: url.host };
  let headerLines = 1;
  request.headers.forEach((value, name) => {
    headers[name] = value;
    headerLines++;
  });
  return {
    method: request.method,
    path: url.pathname,
    query: url.searchParams,
    headers,
    body: Buffer.from(await request.arrayBuffer()),
    headerLines,
  };
}

/**
 * Build the mock in-process: spec and Prism loaded, state seeded (or read from `stateFile`).
 *
 * @example
 * const app = await createMock({ clock: 'manual' });
 * const response = await app.request('/v3/users', { headers: { authorization: `Bearer ${token}` } });
 */
export async function createMock(options: MockOptions = {}): Promise<MockApp> {
  const resolved = resolveOptions(options);
  const [demoClient] = resolved.clients;
  if (!demoClient) throw new ConfigError('pacu: the mock needs at least one client');
  const spec = await loadSpec(resolved.specFile);
  const prism = deferRequestCheck(spec, resolved.log);
  const givenScenario = resolveScenario(resolved.scenario);
  const beginning = await beginningOf(spec, resolved);
  const { initialState } = beginning;
  const { behaviour, learned } = await behaviourOf(spec, beginning, prism, demoClient, resolved.seed);
  // The lifecycles a recording's --follow saw run ahead of the default scenario's (decision 178).
  const startScenario = withLearnedLifecycles(
    givenScenario,
    behaviour,
    resolved.scenario === DEFAULT_SCENARIO,
  );
  // One redactor for all the mock shows of its traffic (decision 160): made first, because the
  // store keeps the journal that shows requests through it; the kit below assembles the rest.
  const redactor = createSurfaceRedactor({
    others: resolved.clients.map((client) => client.clientSecret),
    headers: resolved.redactHeaders,
    fields: resolved.redactFields,
    keepCardData: resolved.keepCardData,
  });
  const log = (line: string): void => resolved.log(redactor.redactText(line));
  const { store, collectedAfterLoading } = await openStore(
    resolved,
    {
      spec,
      seed: resolved.seed,
      clock: resolved.clock,
      clockStart: resolved.clockStart,
      scenario: startScenario,
      journalSize: resolved.journalSize,
      redactor,
      basePath: behaviour.basePath,
      webhookRetry: resolved.webhookRetry,
      retention: { ms: resolved.retain, records: resolved.retainRecords },
      log,
    },
    initialState,
  );
  for (const client of resolved.clients)
    await store.records.putClient({ ...client, scopes: [...client.scopes] });
  const knownReceivers = await store.records.receivers();
  for (const { url, secret } of resolved.webhooks) {
    const known = knownReceivers.some((receiver) => receiver.url === url && receiver.secret === secret);
    // Named by what it is: N replicas started with the same flags make one receiver, not N.
    const id = `rcv_${createHash('sha256').update(`${url}\n${secret}`).digest('hex').slice(0, 24)}`;
    if (!known) await store.records.putReceiver({ id, url, secret });
  }
  // Until the mock listens, what app.request() answers is recorded under the in-process origin.
  let origin = `http://${IN_PROCESS_HOST}`;
  // One kit for all the mock shows of its traffic: the recording, the journal and coverage (the
  // store's), then a judge, as the mock's observers.
  let kit: SurfaceKit;
  try {
    kit = openSurfaceKit({
      surface: 'pacu mock',
      redactor,
      record: resolved.record ? { file: resolved.record, origin: () => origin } : undefined,
      observers: (made) => [store.journal, store.coverage, ...(resolved.judge?.(made) ?? [])],
      extra: resolved.observers,
      // The journal shows requests only: answers are read for credentials when recorded or judged.
      readsAnswers: resolved.judge !== undefined,
      log: resolved.log,
    });
  } catch (error) {
    await store.close();
    throw error;
  }
  const { pipeline } = kit;
  // A shared store got the scenario's faults from the replica that seeded it, not again from each.
  if (store.seededNow) await installScenarioFaults(store.faults, startScenario);
  const context: MockContext = {
    spec,
    checkRequest: prism.check,
    clock: store.clock,
    webhooks: store.webhooks,
    tokenLifetimeSeconds:
      resolved.tokenLifetimeSeconds ?? behaviour.tokenLifetimeSeconds ?? spec.tokenLifetimeSeconds,
    behaviour,
    store,
    log: kit.log,
  };
  const control = createControl({ context, initialState, startScenario, demoClient });
  // Off loopback the control API is reachable by others: it needs a token (given, or made up here).
  // A shared store's control API resets, reads secrets and moves the clock for every replica: it
  // needs a token even on loopback (decision 163); none given, each replica makes one and prints it.
  const controlToken =
    resolved.controlToken ??
    (isLoopbackHost(resolved.host) && !store.shared ? undefined : randomBytes(18).toString('base64url'));
  const guard = createControlGuard(resolved.host, controlToken);
  const core = createRequestCore({
    api: createApiHandler(context, resolved.selfCheck),
    control: createControlHandler(control, () => store.stats()),
    guardControl: (request) => guard.check(request),
    controlEnabled: resolved.control,
    committed: () => store.committed(),
    pipeline,
    log: kit.log,
  });
  core.use(
    createConsumerLayer({
      spec,
      basePath: behaviour.basePath,
      store,
      readKeys: (operation, request, params, body) => readKeys(context, operation, request, params, body),
    }),
  );
  // Until Prism is loaded, requests wait for it (in the order they came); then straight through.
  const handle = (incoming: MockRequest): Promise<MockReply> =>
    prism.loaded ? core.handle(incoming) : prism.load().then(() => core.handle(incoming));
  const request = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const reply = await handle(await toMockRequest(input, init));
    if (reply.transport?.kind === 'drop') {
      // As fetch reports a reset connection, so in-process tests see what an HTTP client sees.
      const reset = Object.assign(new Error('socket hang up (pacu fault)'), { code: 'ECONNRESET' });
      throw new TypeError('fetch failed', { cause: reset });
    }
    const text = replyText(reply);
    return new Response(text, {
      status: reply.status,
      headers: { 'content-type': 'application/json; charset=utf-8', ...reply.headers },
    });
  };
  let closed: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closed ??= (async () => {
      await kit.close();
      await store.close();
    })();
    return closed;
  };
  const app: MockApp = {
    request,
    control,
    get seeded() {
      return { ...store.seeded };
    },
    demoClient: { ...demoClient, scopes: [...demoClient.scopes] },
    basePath: behaviour.basePath,
    learned,
    async listen() {
      // A server starts from a collected heap, or the loading garbage sets the next collection's
      // limit too low and a young store's first seconds pay for it (decision 042). Done once Prism
      // is loaded (requests wait for it anyway), so the ready line does not wait for the collection.
      if (!collectedAfterLoading && prism.loaded) collectStartGarbage();
      const limits = {
        ...FRONT_DOOR_DEFAULTS,
        maxHeaderSize: resolved.maxHeaderSize,
        headersTimeoutMs: resolved.headersTimeoutMs,
        requestTimeoutMs: resolved.requestTimeoutMs,
      };
      const server = await listen(handle, resolved.host, resolved.port, limits, kit.log);
      origin = server.origin;
      // Prism loads once the socket listens (and the caller has said so), then the heap is
      // collected again for the reason above.
      if (!prism.loaded) setImmediate(() => void prism.load().then(collectStartGarbage));
      if (resolved.control && controlToken && !resolved.controlToken && store.shared)
        resolved.log(
          `pacu mock: the control API of a shared store answers only with header x-pacu-control-token: ${controlToken} (give every replica the same --control-token)`,
        );
      else if (resolved.control && controlToken && !isLoopbackHost(resolved.host)) {
        resolved.log(
          `pacu mock: warning: listening on ${resolved.host} serves the control API (secrets, reset) beyond this machine; it answers only with header x-pacu-control-token: ${controlToken}`,
        );
      }
      return {
        url: `${server.origin}${behaviour.basePath}`,
        origin: server.origin,
        controlToken,
        control,
        seeded: app.seeded,
        demoClient: app.demoClient,
        learned,
        request,
        async close() {
          await server.close();
          await close();
        },
      };
    },
    close,
  };
  return app;
}

/**
 * Start the mock on HTTP (127.0.0.1 and a free port unless told otherwise).
 *
 * @example
 * const mock = await startMock({ clock: 'manual' });
 * // … point a client at mock.url, drive time with mock.control.advanceClock(60) …
 * await mock.close();
 */
export async function startMock(options: MockOptions = {}): Promise<RunningMock> {
  const app = await createMock(options);
  try {
    return await app.listen();
  } catch (error) {
    await app.close();
    throw new ConfigError(
      `pacu: cannot listen on ${options.host ?? '127.0.0.1'}:${options.port ?? 0}: ${(error as Error).message}`,
      { cause: error },
    );
  }
}
