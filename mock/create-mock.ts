import { ConfigError, loadSpec } from '../spec/index.ts';
import { createControl, type MockControl } from './control.ts';
import { createApiHandler } from './internal/app.ts';
import { createClock } from './internal/clock.ts';
import type { MockContext } from './internal/context.ts';
import { CONTROL_PREFIX, createControlHandler } from './internal/control-api.ts';
import { listen } from './internal/http-server.ts';
import type { MockReply, MockRequest } from './internal/http-types.ts';
import { scheduleAllLifecycles } from './internal/lifecycle.ts';
import { createPersister } from './internal/persister.ts';
import { newId } from './internal/random.ts';
import { loadScenarioFile, type Scenario, validateScenario } from './internal/scenario.ts';
import { seedState } from './internal/seed.ts';
import type { SeededIds } from './internal/state.ts';
import { readStateFile } from './internal/state-file.ts';
import { createWebhookDispatcher } from './internal/webhooks.ts';
import { type MockClient, type MockOptions, resolveOptions } from './options.ts';
import { loadPrismRequestCheck } from './prism-adapter.ts';

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
  readonly control: MockControl;
  readonly seeded: SeededIds;
  readonly demoClient: MockClient;
  request(input: string | URL | Request, init?: RequestInit): Promise<Response>;
  close(): Promise<void>;
}

function resolveScenario(scenario: string | Scenario): Scenario {
  return typeof scenario === 'string'
    ? loadScenarioFile(scenario)
    : validateScenario(scenario, '(options.scenario)');
}

async function toMockRequest(input: string | URL | Request, init?: RequestInit): Promise<MockRequest> {
  const request =
    input instanceof Request ? input : new Request(new URL(String(input), 'http://pacu.mock'), init);
  const url = new URL(request.url);
  const headers: Record<string, string> = {};
  request.headers.forEach((value, name) => {
    headers[name] = value;
  });
  return {
    method: request.method,
    path: url.pathname,
    query: url.searchParams,
    headers,
    body: Buffer.from(await request.arrayBuffer()),
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
  const checkRequest = await loadPrismRequestCheck(spec.file);
  const startScenario = resolveScenario(resolved.scenario);
  const loaded = resolved.stateFile ? await readStateFile(resolved.stateFile, spec) : undefined;
  const state = loaded?.state ?? seedState(resolved.seed);
  for (const client of resolved.clients)
    state.clients.set(client.clientId, { ...client, scopes: [...client.scopes] });
  for (const { url, secret } of resolved.webhooks) {
    const known = [...state.receivers.values()].some(
      (receiver) => receiver.url === url && receiver.secret === secret,
    );
    if (!known) {
      const id = newId('rcv');
      state.receivers.set(id, { id, url, secret });
    }
  }
  const clock = createClock(resolved.clock, resolved.clockStart ?? loaded?.now ?? Date.now());
  let persist = (): void => {};
  const context: MockContext = {
    spec,
    checkRequest,
    clock,
    webhooks: createWebhookDispatcher(
      () => context.state.receivers.values(),
      resolved.webhookRetry,
      resolved.log,
    ),
    tokenLifetimeSeconds: resolved.tokenLifetimeSeconds ?? spec.tokenLifetimeSeconds,
    state,
    scenario: startScenario,
    markDirty: () => persist(),
    log: resolved.log,
  };
  const persister = createPersister(
    resolved.stateFile,
    () => ({ state: context.state, now: clock.now() }),
    resolved.stateFlushMs,
    resolved.log,
  );
  persist = () => persister.markDirty();
  scheduleAllLifecycles(context);
  const control = createControl({
    context,
    seed: resolved.seed,
    startScenario,
    demoClient,
    flush: () => persister.flush(),
  });
  const api = createApiHandler(context, resolved.selfCheck);
  const controlApi = createControlHandler(control);

  const handle = (request: MockRequest): MockReply => {
    const isControl = request.path === CONTROL_PREFIX || request.path.startsWith(`${CONTROL_PREFIX}/`);
    if (!isControl) return api(request);
    if (!resolved.control)
      return { status: 404, body: { success: false, message: `no operation at ${request.path}` } };
    try {
      return controlApi(request);
    } catch (error) {
      resolved.log(
        `pacu mock: unexpected error on ${request.method} ${request.path}: ${(error as Error)?.stack ?? String(error)}`,
      );
      return { status: 500, body: { error: 'internal error in pacu mock (logged)' } };
    }
  };
  const request = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const reply = handle(await toMockRequest(input, init));
    return new Response(JSON.stringify(reply.body), {
      status: reply.status,
      headers: { 'content-type': 'application/json; charset=utf-8', ...reply.headers },
    });
  };
  let closed: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closed ??= (async () => {
      clock.clear();
      await context.webhooks.close();
      await persister.close();
    })();
    return closed;
  };
  const app: MockApp = {
    request,
    control,
    get seeded() {
      return { ...context.state.seeded };
    },
    demoClient: { ...demoClient, scopes: [...demoClient.scopes] },
    basePath: spec.basePath,
    async listen() {
      const server = await listen(handle, resolved.host, resolved.port, resolved);
      return {
        url: `${server.origin}${spec.basePath}`,
        origin: server.origin,
        control,
        seeded: app.seeded,
        demoClient: app.demoClient,
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
