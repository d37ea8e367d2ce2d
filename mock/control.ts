import type { ControlIds, ControlOperations } from '../spec/index.ts';
import type { MockContext } from './internal/context.ts';
import { createPushToCard } from './internal/handlers/push-to-card.ts';
import { MockHttpError } from './internal/http-types.ts';
import { scheduleAllLifecycles } from './internal/lifecycle.ts';
import { newId } from './internal/random.ts';
import { type Scenario, validateScenario } from './internal/scenario.ts';
import { seedState } from './internal/seed.ts';
import { fromSnapshot, type StateSnapshot, toSnapshot } from './internal/snapshot.ts';
import type { MockClient } from './options.ts';

export type { ControlIds };

/**
 * The control API in-process: the operations of the control protocol (`spec/control-protocol.ts`),
 * which `/__pacu` serves one to one over HTTP, plus what only makes sense in-process. Bad input throws.
 */
export interface MockControl extends ControlOperations {
  /** Resolves once no webhook delivery is in flight or waiting for a retry. */
  webhooksIdle(): Promise<void>;
  dumpState(): StateSnapshot;
  /** Write the state file now (no-op without one). */
  flush(): Promise<void>;
}

export interface ControlDeps {
  context: MockContext;
  seed: number;
  startScenario: Scenario;
  demoClient: MockClient;
  flush(): Promise<void>;
}

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
  const scopes = client.scopes ?? ['card', 'us_account'];
  if (!Array.isArray(scopes) || scopes.some((scope) => scope !== 'card' && scope !== 'us_account')) {
    throw bad('scopes must be a list of card and us_account');
  }
  return { clientId: client.clientId, clientSecret: client.clientSecret, scopes: [...scopes] };
}

export function createControl({ context, seed, startScenario, demoClient, flush }: ControlDeps): MockControl {
  const clockView = () => ({
    mode: context.clock.mode,
    now: new Date(context.clock.now()).toISOString(),
    epochMs: context.clock.now(),
  });
  return {
    ids: () => ({
      ...context.state.seeded,
      clientId: demoClient.clientId,
      clientSecret: demoClient.clientSecret,
      scopes: [...demoClient.scopes],
    }),
    reset() {
      const { clients, tokens, receivers } = context.state;
      context.state = Object.assign(seedState(seed), { clients, tokens, receivers });
      context.scenario = startScenario;
      context.clock.clear();
      context.webhooks.clearHistory();
      context.markDirty();
    },
    clock: clockView,
    advanceClock(seconds) {
      if (context.clock.mode !== 'manual') {
        throw new MockHttpError(
          409,
          'the clock is real time; start the mock with --clock manual (clock: "manual") to advance it',
        );
      }
      if (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds < 0)
        throw bad('seconds must be a number >= 0');
      context.clock.advance(Math.round(seconds * 1000));
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
      if (typeof receiver.secret !== 'string' || receiver.secret === '')
        throw bad('secret must be a non-empty string (whsec_<base64> preferred)');
      const id = newId('rcv');
      context.state.receivers.set(id, { id, url: receiver.url, secret: receiver.secret });
      context.markDirty();
      return { id };
    },
    receivers: () => [...context.state.receivers.values()].map((receiver) => ({ ...receiver })),
    removeReceiver(id) {
      const removed = context.state.receivers.delete(id);
      if (removed) context.markDirty();
      return removed;
    },
    attempts: () => context.webhooks.attempts(),
    events: () => context.webhooks.events(),
    redeliver: (eventId) => context.webhooks.redeliver(eventId),
    webhooksIdle: () => context.webhooks.idle(),
    scenario: () => structuredClone(context.scenario),
    setScenario(scenario) {
      context.scenario = validateScenario(scenario, '(control API)');
    },
    dumpState: () => toSnapshot(context.state, context.clock.now()),
    loadState(snapshot) {
      const loaded = fromSnapshot(context.spec, snapshot);
      if ('problems' in loaded) throw bad(`not a pacu mock state: ${loaded.problems.slice(0, 5).join('; ')}`);
      context.state = loaded.state;
      context.clock.clear();
      scheduleAllLifecycles(context);
      context.markDirty();
    },
    addClient(value) {
      const client = checkClient(value);
      context.state.clients.set(client.clientId, client);
      context.markDirty();
      return { ...client };
    },
    createPushToCard: (input) => ({ ...createPushToCard(context, input).record }),
    flush,
  };
}
