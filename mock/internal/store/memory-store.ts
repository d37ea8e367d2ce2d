import type { Redactor } from '../../../http/index.ts';
import type { Spec } from '../../../spec/index.ts';
import type { ClockMode, Scenario, WebhookReceiver, WebhookRetry } from '../../types.ts';
import { createClock, type MockClock } from '../clock.ts';
import { createCoverageRecorder, observedForCoverage } from '../coverage.ts';
import { createFaultRegistry } from '../faults.ts';
import { createRequestJournal } from '../request-journal.ts';
import { toSnapshot } from '../snapshot.ts';
import type { MockState } from '../state.ts';
import { createWebhookDispatcher } from '../webhooks.ts';
import { createMemoryLifecycles } from './memory-lifecycles.ts';
import { memoryRecords } from './memory-records.ts';
import { createMemoryRetention } from './memory-retention.ts';
import { MockStore } from './mock-store.ts';
import type { Retention } from './retention.ts';
import type { StateStore } from './state-store.ts';

const NO_RECEIVERS: readonly WebhookReceiver[] = Object.freeze([]);

/** What every store is built with: the description, and the settings of the mock's own parts. */
export interface StoreSettings {
  spec: Spec;
  seed: number;
  clock: ClockMode;
  /** A manual clock's start (ms); a state read back brings its own. */
  clockStart: number | undefined;
  scenario: Scenario;
  journalSize: number;
  redactor: Redactor;
  basePath: string;
  webhookRetry: WebhookRetry;
  /** What the store keeps of what clients make (decision 164). */
  retention: Retention;
  log(line: string): void;
}

/** The memory store, with the maps the file store journals and snapshots (no one else holds them). */
export interface MemoryStore extends StateStore {
  readonly maps: MockStore;
  readonly timer: MockClock;
}

/**
 * The embedded default: the state in this process's maps, due work on its clock, webhooks from its
 * dispatcher. Every answer is a plain value, so a request runs without a promise turn.
 */
export function createMemoryStore(
  settings: StoreSettings,
  state: MockState,
  now: number | undefined,
  kind: 'memory' | 'file' = 'memory',
): MemoryStore {
  const maps = new MockStore(state);
  const clock = createClock(settings.clock, settings.clockStart ?? now ?? Date.now());
  const coverage = createCoverageRecorder(settings.spec);
  const webhooks = observedForCoverage(
    createWebhookDispatcher({
      // Asked at every event: a mock with no receiver (the usual one) makes no list to say so.
      receivers: () => (maps.view.receivers.size === 0 ? NO_RECEIVERS : [...maps.view.receivers.values()]),
      putReceiver: (receiver) => maps.putReceiver(receiver),
      clock,
      retry: settings.webhookRetry,
      log: settings.log,
    }),
    coverage,
  );
  const lifecycles = createMemoryLifecycles({
    maps,
    clock,
    emit: (type, payload, clientId) => void webhooks.emit(type, payload, clientId),
  });
  lifecycles.armAll();
  const retention = createMemoryRetention(maps, clock, settings.retention);
  retention.rebuild();
  let scenario = settings.scenario;
  return {
    kind,
    shared: false,
    get seeded() {
      return maps.view.seeded;
    },
    // The faults a start installs live in this process, so every start installs them.
    seededNow: true,
    maps,
    timer: clock,
    records: memoryRecords(
      maps,
      lifecycles.arm,
      retention.made,
      (event) => void webhooks.emit(event.type, event.payload, event.clientId),
    ),
    clock: {
      mode: clock.mode,
      now: clock.now,
      current: clock.now,
      advance(ms) {
        clock.advance(ms);
        // Journaled, so a restart resumes at the same mock time.
        maps.setNow(clock.now());
        retention.prune();
        return clock.now();
      },
    },
    faults: createFaultRegistry(settings.seed),
    journal: createRequestJournal(settings.spec, settings.journalSize, settings.redactor, settings.basePath),
    coverage,
    webhooks,
    scenario: () => scenario,
    setScenario(next) {
      scenario = next;
    },
    reset(fresh, clientId) {
      if (clientId !== undefined) return maps.removeClientData(clientId);
      // Clients, tokens and receivers are the harness's wiring: they outlive a reset (decision 013).
      const { clients, tokens, receivers } = maps.view;
      const next = fresh();
      for (const client of clients.values()) next.clients.set(client.clientId, client);
      for (const token of tokens.values()) next.tokens.set(token.token, token);
      for (const receiver of receivers.values()) next.receivers.set(receiver.id, receiver);
      clock.clear();
      void webhooks.clearHistory();
      maps.replace(next, clock.now());
      retention.rebuild();
    },
    dump: () => toSnapshot(maps.view, clock.now()),
    load(loaded) {
      clock.clear();
      maps.replace(loaded, clock.now());
      retention.rebuild();
      lifecycles.armAll();
    },
    stats: () => ({ kind, shared: false }),
    committed: () => maps.committed(),
    async close() {
      retention.stop();
      clock.clear();
      await webhooks.close();
    },
  };
}
