import { randomBytes } from 'node:crypto';
import {
  asHar,
  createPipeline,
  createRedactor,
  FRONT_DOOR_DEFAULTS,
  type Har,
  IN_PROCESS_HOST,
  learningObserver,
  openRecording,
  type Recording,
  readHar,
} from '../http/index.ts';
import { ConfigError, loadSpec, type Spec } from '../spec/index.ts';
import { DEFAULT_SCENARIO } from './default-scenario.ts';
import { deferRequestCheck } from './deferred-request-check.ts';
import { createApiHandler } from './internal/app.ts';
import { type Behaviour, pacuBehaviour } from './internal/behaviour.ts';
import { createClock } from './internal/clock.ts';
import { COLLECT_AFTER_LOADING, collectGarbage, collectStartGarbage } from './internal/collect-garbage.ts';
import { createConsumerLayer } from './internal/consumer-layer.ts';
import type { MockContext } from './internal/context.ts';
import { type ConsumerSide, createControl, installScenarioFaults } from './internal/control.ts';
import { createControlHandler } from './internal/control-api.ts';
import { createControlGuard, isLoopbackHost } from './internal/control-guard.ts';
import { createCoverageRecorder, observedForCoverage } from './internal/coverage.ts';
import { type DurableState, openDurableState } from './internal/durable-state.ts';
import { replyText } from './internal/envelope.ts';
import { createFaultRegistry } from './internal/faults.ts';
import { type CheckedExchange, checkRecording, recordedState } from './internal/from-recording.ts';
import { listen } from './internal/http-server.ts';
import type { MockReply, MockRequest } from './internal/http-types.ts';
import { withLearnedLifecycles } from './internal/learn/learn-lifecycle.ts';
import { learnFromRecording } from './internal/learn/learn-recording.ts';
import { scheduleAllLifecycles } from './internal/lifecycle.ts';
import { newId } from './internal/random.ts';
import { createRequestCore } from './internal/request-core.ts';
import { createRequestJournal } from './internal/request-journal.ts';
import { seedState } from './internal/seed.ts';
import type { MockState } from './internal/state.ts';
import { MockStore, type StoreView } from './internal/store.ts';
import { createWebhookDispatcher } from './internal/webhooks.ts';
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

const storedPayments = (view: StoreView): number =>
  view.transfers.size + view.payouts.size + view.pushToCard.size;

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
  const prism = deferRequestCheck(spec.document, resolved.log);
  const givenScenario = resolveScenario(resolved.scenario);
  const durable: DurableState | undefined = resolved.stateFile
    ? await openDurableState(resolved.stateFile, spec, resolved)
    : undefined;
  const loaded = durable?.loaded;
  const beginning = await beginningOf(spec, resolved);
  const { initialState } = beginning;
  const { behaviour, learned } = await behaviourOf(spec, beginning, prism, demoClient, resolved.seed);
  // The lifecycles a recording's --follow saw run ahead of the default scenario's (decision 178).
  const startScenario = withLearnedLifecycles(
    givenScenario,
    behaviour,
    resolved.scenario === DEFAULT_SCENARIO,
  );
  const store = new MockStore(loaded?.state ?? initialState());
  const clock = createClock(resolved.clock, resolved.clockStart ?? loaded?.now ?? Date.now());
  await durable?.attach(store, () => clock.now());
  // A big state is collected once now, whether or not this mock will listen (see listen()).
  const collectedAfterLoading = loaded !== undefined && storedPayments(store.view) >= COLLECT_AFTER_LOADING;
  if (collectedAfterLoading) collectGarbage();
  for (const client of resolved.clients) store.putClient({ ...client, scopes: [...client.scopes] });
  for (const { url, secret } of resolved.webhooks) {
    const known = [...store.view.receivers.values()].some(
      (receiver) => receiver.url === url && receiver.secret === secret,
    );
    if (!known) store.putReceiver({ id: newId('rcv'), url, secret });
  }
  // One redactor for all the mock shows of its traffic: the journal, the recording, the findings.
  const redactor = createRedactor({
    others: resolved.clients.map((client) => client.clientSecret),
    headers: resolved.redactHeaders,
    fields: resolved.redactFields,
  });
  const consumer: ConsumerSide = {
    faults: createFaultRegistry(resolved.seed),
    journal: createRequestJournal(spec, resolved.journalSize, redactor, behaviour.basePath),
    coverage: createCoverageRecorder(spec),
  };
  // Until the mock listens, what app.request() answers is recorded under the in-process origin.
  let origin = `http://${IN_PROCESS_HOST}`;
  const recording: Recording | undefined = resolved.record
    ? openRecording({
        file: resolved.record,
        redactor,
        origin: () => origin,
        onError: (error) =>
          resolved.log(`pacu mock: cannot write the recording (it stops here): ${error.message}`),
      })
    : undefined;
  const pipeline = createPipeline(
    [
      // The journal shows requests only: answers are read for credentials when they are recorded.
      learningObserver(redactor, recording !== undefined),
      ...(recording ? [recording] : []),
      consumer.journal,
      consumer.coverage,
      ...resolved.observers,
    ],
    resolved.log,
  );
  installScenarioFaults(consumer.faults, startScenario);
  const context: MockContext = {
    spec,
    checkRequest: prism.check,
    clock,
    webhooks: observedForCoverage(
      createWebhookDispatcher({ store, clock, retry: resolved.webhookRetry, log: resolved.log }),
      consumer.coverage,
    ),
    tokenLifetimeSeconds:
      resolved.tokenLifetimeSeconds ?? behaviour.tokenLifetimeSeconds ?? spec.tokenLifetimeSeconds,
    behaviour,
    store,
    scenario: startScenario,
    log: resolved.log,
  };
  scheduleAllLifecycles(context);
  const control = createControl({
    context,
    initialState,
    startScenario,
    demoClient,
    flush: () => durable?.flush() ?? Promise.resolve(),
    consumer,
  });
  // Off loopback the control API is reachable by others: it needs a token (given, or made up here).
  const controlToken =
    resolved.controlToken ??
    (isLoopbackHost(resolved.host) ? undefined : randomBytes(18).toString('base64url'));
  const guard = createControlGuard(resolved.host, controlToken);
  const core = createRequestCore({
    api: createApiHandler(context, resolved.selfCheck),
    control: createControlHandler(control),
    guardControl: (request) => guard.check(request),
    controlEnabled: resolved.control,
    committed: () => store.committed(),
    pipeline,
    log: resolved.log,
  });
  core.use(
    createConsumerLayer({
      spec,
      basePath: behaviour.basePath,
      view: () => store.view,
      faults: consumer.faults,
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
      clock.clear();
      await context.webhooks.close();
      await pipeline.close();
      await durable?.close();
    })();
    return closed;
  };
  const app: MockApp = {
    request,
    control,
    get seeded() {
      return { ...store.view.seeded };
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
      const server = await listen(handle, resolved.host, resolved.port, limits, resolved.log);
      origin = server.origin;
      // Prism loads once the socket listens (and the caller has said so), then the heap is
      // collected again for the reason above.
      if (!prism.loaded) setImmediate(() => void prism.load().then(collectStartGarbage));
      if (resolved.control && controlToken && !isLoopbackHost(resolved.host)) {
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
