import { webhookSecretProblem } from '../../http/index.ts';
import { SCOPES } from '../../spec/index.ts';
import { validateScenario } from '../scenario.ts';
import type { MockClient, MockControl, Scenario } from '../types.ts';
import type { MockContext } from './context.ts';
import type { CoverageRecorder } from './coverage.ts';
import type { FaultRegistry } from './faults.ts';
import { createPushToCard } from './handlers/push-to-card.ts';
import { MockHttpError } from './http-types.ts';
import { scheduleAllLifecycles } from './lifecycle.ts';
import { newId } from './random.ts';
import type { RequestJournal } from './request-journal.ts';
import { fromSnapshot, toSnapshot } from './snapshot.ts';
import type { MockState } from './state.ts';

export interface ControlDeps {
  context: MockContext;
  /** The state a plain reset returns to: the seed's, or a recording's. */
  initialState(): MockState;
  startScenario: Scenario;
  demoClient: MockClient;
  flush(): Promise<void>;
  consumer: ConsumerSide;
}

/** The consumer's side: faults, the request journal and coverage (see consumer-layer.ts). */
export interface ConsumerSide {
  faults: FaultRegistry;
  journal: RequestJournal;
  coverage: CoverageRecorder;
}

/** Install a scenario's faults (at start, after a plain reset, with a new scenario). */
export function installScenarioFaults(faults: FaultRegistry, scenario: Scenario): void {
  for (const fault of scenario.faults ?? []) faults.add(fault);
}

/** The largest single clock advance: ten years (a later time could not be written as a date). */
export const MAX_ADVANCE_SECONDS = 10 * 365 * 24 * 3600;
/** Dates end here (ECMAScript's limit); a clock past it could not be read back. */
const LAST_DATE_MS = 8.64e15;

const bad = (message: string): MockHttpError => new MockHttpError(400, message);

function checkClient(value: unknown): MockClient {
  const client = value as Partial<MockClient> | null;
  if (
    !client ||
    typeof client.clientId !== 'string' ||
    client.clientId === '' ||
    client.clientId.includes(':')
  ) {
    throw bad('clientId must be a non-empty string without ":"');
  }
  if (typeof client.clientSecret !== 'string' || client.clientSecret === '')
    throw bad('clientSecret must be a non-empty string');
  const scopes = client.scopes ?? SCOPES;
  if (!Array.isArray(scopes) || scopes.some((scope) => !SCOPES.includes(scope))) {
    throw bad(`scopes must be a list of ${SCOPES.join(' and ')}`);
  }
  return { clientId: client.clientId, clientSecret: client.clientSecret, scopes: [...scopes] };
}

export function createControl({
  context,
  initialState,
  startScenario,
  demoClient,
  flush,
  consumer,
}: ControlDeps): MockControl {
  const { store, clock } = context;
  const clockView = () => ({
    mode: clock.mode,
    now: new Date(clock.now()).toISOString(),
    epochMs: clock.now(),
  });
  return {
    ids: () => ({
      ...store.view.seeded,
      clientId: demoClient.clientId,
      clientSecret: demoClient.clientSecret,
      scopes: [...demoClient.scopes],
    }),
    reset(options) {
      if (options?.clientId !== undefined) {
        store.removeClientData(options.clientId);
        consumer.faults.clear(options.clientId);
        consumer.journal.clear(options.clientId);
        return;
      }
      consumer.faults.clear();
      consumer.faults.reseed();
      consumer.journal.clear();
      installScenarioFaults(consumer.faults, startScenario);
      const { clients, tokens, receivers } = store.view;
      const fresh = initialState();
      for (const client of clients.values()) fresh.clients.set(client.clientId, client);
      for (const token of tokens.values()) fresh.tokens.set(token.token, token);
      for (const receiver of receivers.values()) fresh.receivers.set(receiver.id, receiver);
      clock.clear();
      context.webhooks.clearHistory();
      store.replace(fresh, clock.now());
      context.scenario = startScenario;
    },
    clock: clockView,
    advanceClock(seconds) {
      if (clock.mode !== 'manual') {
        throw new MockHttpError(
          409,
          'the clock is real time; start the mock with --clock manual (clock: "manual") to advance it',
        );
      }
      if (
        typeof seconds !== 'number' ||
        !Number.isFinite(seconds) ||
        seconds < 0 ||
        seconds > MAX_ADVANCE_SECONDS
      )
        throw bad(`seconds must be a number from 0 to ${MAX_ADVANCE_SECONDS} (ten years)`);
      const ms = Math.round(seconds * 1000);
      if (clock.now() + ms > LAST_DATE_MS)
        throw bad('the clock cannot move past the last date JavaScript can hold');
      clock.advance(ms);
      store.setNow(clock.now());
      return { now: clockView().now, epochMs: clockView().epochMs };
    },
    addReceiver(receiver) {
      if (
        !receiver ||
        typeof receiver.url !== 'string' ||
        !URL.canParse(receiver.url) ||
        !/^https?:/.test(receiver.url)
      ) {
        throw bad('url must be an http(s) URL');
      }
      const secretProblem = webhookSecretProblem(receiver.secret);
      if (secretProblem) throw bad(`secret ${secretProblem}`);
      if (
        receiver.clientId !== undefined &&
        (typeof receiver.clientId !== 'string' || receiver.clientId === '')
      )
        throw bad('clientId must be a non-empty string');
      const id = newId('rcv');
      const owner = receiver.clientId === undefined ? {} : { clientId: receiver.clientId };
      store.putReceiver({ id, url: receiver.url, secret: receiver.secret, ...owner });
      return { id };
    },
    receivers: () => [...store.view.receivers.values()].map((receiver) => ({ ...receiver })),
    removeReceiver: (id) => store.deleteReceiver(id),
    attempts: () => context.webhooks.attempts(),
    events: () => context.webhooks.events(),
    redeliver: (eventId) => context.webhooks.redeliver(eventId),
    webhooksIdle: () => context.webhooks.idle(),
    scenario: () => structuredClone(context.scenario),
    setScenario(scenario) {
      context.scenario = validateScenario(scenario, '(control API)');
      installScenarioFaults(consumer.faults, context.scenario);
    },
    dumpState: () => toSnapshot(store.view, clock.now()),
    loadState(snapshot) {
      const loaded = fromSnapshot(context.spec, snapshot);
      if ('problems' in loaded) throw bad(`not a pacu mock state: ${loaded.problems.slice(0, 5).join('; ')}`);
      clock.clear();
      store.replace(loaded.state, clock.now());
      scheduleAllLifecycles(context);
    },
    addClient(value) {
      const client = checkClient(value);
      store.putClient(client);
      return { ...client };
    },
    createPushToCard: (input) => ({ ...createPushToCard(context, input).record }),
    flush,
    addFault: (fault) => consumer.faults.add(fault),
    faults: () => consumer.faults.list(),
    clearFaults: (options) => ({ cleared: consumer.faults.clear(options?.clientId) }),
    requests: (filter) => consumer.journal.query(filter),
    unmatchedRequests: () => consumer.journal.unmatched(),
    coverage: () => consumer.coverage.report(context.webhooks.attempts()),
  };
}
