import { webhookSecretProblem } from '../../http/index.ts';
import { SCOPES } from '../../spec/index.ts';
import { validateScenario } from '../scenario.ts';
import type { MockClient, MockControl, Scenario } from '../types.ts';
import type { MockContext } from './context.ts';
import type { FaultRegistry } from './faults.ts';
import { createPushToCard } from './handlers/push-to-card.ts';
import { MockHttpError } from './http-types.ts';
import { newId } from './random.ts';
import { fromSnapshot } from './snapshot.ts';
import type { MockState } from './state.ts';

export interface ControlDeps {
  context: MockContext;
  /** The state a plain reset returns to: the seed's, or a recording's. */
  initialState(): MockState;
  startScenario: Scenario;
  demoClient: MockClient;
}

/** Install a scenario's faults (at start, after a plain reset, with a new scenario). */
export async function installScenarioFaults(faults: FaultRegistry, scenario: Scenario): Promise<void> {
  for (const fault of scenario.faults ?? []) await faults.add(fault);
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

/** The control operations, each through the store (so through any replica on a shared one). */
export function createControl({
  context,
  initialState,
  startScenario,
  demoClient,
}: ControlDeps): MockControl {
  const { store, clock } = context;
  const clockView = async () => {
    const epochMs = await clock.current();
    return { mode: clock.mode, now: new Date(epochMs).toISOString(), epochMs };
  };
  return {
    ids: async () => ({
      ...store.seeded,
      clientId: demoClient.clientId,
      clientSecret: demoClient.clientSecret,
      scopes: [...demoClient.scopes],
    }),
    async reset(options) {
      if (options?.clientId !== undefined) {
        await store.reset(initialState, options.clientId);
        await store.faults.clear(options.clientId);
        await store.journal.clear(options.clientId);
        return;
      }
      await store.faults.clear();
      await store.faults.reseed();
      await store.journal.clear();
      await store.setScenario(startScenario);
      await installScenarioFaults(store.faults, startScenario);
      await store.reset(initialState);
    },
    clock: clockView,
    async advanceClock(seconds) {
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
      // On the memory store the clock moves before this returns, as it always did (callers may not await).
      const current = clock.current();
      if ((current instanceof Promise ? await current : current) + ms > LAST_DATE_MS)
        throw bad('the clock cannot move past the last date JavaScript can hold');
      const moved = clock.advance(ms);
      const epochMs = moved instanceof Promise ? await moved : moved;
      return { now: new Date(epochMs).toISOString(), epochMs };
    },
    async addReceiver(receiver) {
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
      await store.records.putReceiver({ id, url: receiver.url, secret: receiver.secret, ...owner });
      return { id };
    },
    receivers: async () => (await store.records.receivers()).map((receiver) => ({ ...receiver })),
    removeReceiver: async (id) => store.records.deleteReceiver(id),
    attempts: async () => context.webhooks.attempts(),
    events: async () => context.webhooks.events(),
    redeliver: async (eventId) => context.webhooks.redeliver(eventId),
    webhooksIdle: () => context.webhooks.idle(),
    scenario: async () => structuredClone(store.scenario()),
    async setScenario(scenario) {
      const checked = validateScenario(scenario, '(control API)');
      await store.setScenario(checked);
      await installScenarioFaults(store.faults, checked);
    },
    dumpState: async () => store.dump(),
    async loadState(snapshot) {
      const loaded = fromSnapshot(context.spec, snapshot);
      if ('problems' in loaded) throw bad(`not a pacu mock state: ${loaded.problems.slice(0, 5).join('; ')}`);
      await store.load(loaded.state, loaded.now);
    },
    async addClient(value) {
      const client = checkClient(value);
      await store.records.putClient(client);
      return { ...client };
    },
    createPushToCard: async (input) => ({ ...(await createPushToCard(context, input)).record }),
    flush: async () => {
      await store.committed();
    },
    addFault: async (fault) => store.faults.add(fault),
    faults: async () => store.faults.list(),
    clearFaults: async (options) => ({ cleared: await store.faults.clear(options?.clientId) }),
    requests: async (filter) => store.journal.query(filter),
    unmatchedRequests: async () => store.journal.unmatched(),
    coverage: async () => store.coverage.report(await context.webhooks.attempts()),
  };
}
