import {
  CONTROL_PREFIX,
  CONTROL_ROUTES,
  type ControlIds,
  type ControlOperations,
  type RemoteControl,
} from '../../http/index.ts';
import { PacuError, TargetUnreachableError } from '../../spec/index.ts';

/** A refusal from the control API, with its status (400 bad input, 404 unknown, 409 wrong clock...). */
export class ControlApiError extends PacuError {
  readonly status: number;

  constructor(status: number, message: string) {
    super('PACU_ERR_CONFIG', message);
    this.name = 'ControlApiError';
    this.status = status;
  }
}

/** Why the target's clock did not move: a pacu mock moves it only on a manual clock. */
export const clockRefusal = (error: ControlApiError): string =>
  `the target's clock cannot be advanced (HTTP ${error.status}); start the mock with --clock manual`;

/**
 * The one client of a pacu mock's control API over HTTP, used by the suites, the contracts and your
 * own tests: the operations of `http/control-protocol.ts`, each answering a promise.
 */
export interface ControlApiClient extends RemoteControl {
  /** The mock's origin, e.g. `http://127.0.0.1:4010` (the control API is under `/__pacu`). */
  readonly origin: string;
  /**
   * Undefined when `origin` serves a pacu mock's control API, else why not (nothing listens,
   * another server, the control API switched off). Never throws.
   */
  probe(): Promise<string | undefined>;
}

type Method = (typeof CONTROL_ROUTES)[keyof typeof CONTROL_ROUTES][0];

function pathOf(name: keyof ControlOperations, params: Record<string, string> = {}): string {
  return CONTROL_ROUTES[name][1].replace(/:([A-Za-z]+)/g, (_m, key: string) =>
    encodeURIComponent(params[key] ?? ''),
  );
}

export interface ControlClientOptions {
  /** The mock's control token (`x-pacu-control-token`), needed when it listens beyond loopback. */
  readonly controlToken?: string;
}

const IDS_KEYS: ReadonlyArray<keyof ControlIds> = ['cardId', 'clientId', 'clientSecret', 'merchantAccountId'];

/**
 * A client for the control API of the pacu mock at `origin` (with or without a trailing `/__pacu`).
 *
 * @example
 * const control = createControlClient('http://127.0.0.1:4010');
 * await control.advanceClock(120);
 * const attempts = await control.attempts();
 */
export function createControlClient(origin: string, options: ControlClientOptions = {}): ControlApiClient {
  const base = origin.replace(/\/+$/, '').replace(new RegExp(`${CONTROL_PREFIX}$`), '');
  const token: Record<string, string> = options.controlToken
    ? { 'x-pacu-control-token': options.controlToken }
    : {};
  const call = async <T>(
    name: keyof ControlOperations,
    init: { params?: Record<string, string>; query?: Record<string, unknown>; body?: unknown } = {},
  ): Promise<T> => {
    const method: Method = CONTROL_ROUTES[name][0];
    const search = new URLSearchParams();
    for (const [key, value] of Object.entries(init.query ?? {}))
      if (value !== undefined) search.set(key, String(value));
    const query = search.size > 0 ? `?${search}` : '';
    const url = `${base}${CONTROL_PREFIX}${pathOf(name, init.params)}${query}`;
    let response: Response;
    try {
      response = await fetch(url, {
        method,
        // Writes always carry a JSON body: the control API takes no other content type.
        ...(method === 'GET'
          ? { headers: token }
          : {
              headers: { 'content-type': 'application/json', ...token },
              body: JSON.stringify(init.body ?? {}),
            }),
      });
    } catch (cause) {
      throw new TargetUnreachableError(
        `pacu: cannot reach the control API at ${base}${CONTROL_PREFIX}: ${((cause as Error).cause as Error | undefined)?.message ?? (cause as Error).message}. Is the mock running there?`,
        { cause },
      );
    }
    const text = await response.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    if (!response.ok) {
      const detail = (json as { error?: unknown } | undefined)?.error;
      throw new ControlApiError(
        response.status,
        `pacu: the control API answered ${method} ${url} with HTTP ${response.status}: ${typeof detail === 'string' ? detail : text.slice(0, 200)}`,
      );
    }
    if (json === undefined)
      throw new ControlApiError(
        response.status,
        `pacu: ${method} ${url} did not answer JSON: is this a pacu mock?`,
      );
    return json as T;
  };
  const found = async (run: () => Promise<unknown>): Promise<boolean> => {
    try {
      await run();
      return true;
    } catch (error) {
      if (error instanceof ControlApiError && error.status === 404) return false;
      throw error;
    }
  };
  return {
    origin: base,
    async probe() {
      try {
        const ids = await call<Record<string, unknown>>('ids');
        const missing = IDS_KEYS.filter((key) => typeof ids[key] !== 'string');
        return missing.length === 0
          ? undefined
          : `${base}${CONTROL_PREFIX}/ids answered without ${missing.join(', ')}: not a pacu mock's control API`;
      } catch (error) {
        return error instanceof PacuError ? error.message.replace(/^pacu: /, '') : String(error);
      }
    },
    ids: () => call('ids'),
    reset: async (options) => {
      await call('reset', { query: { clientId: options?.clientId } });
    },
    clock: () => call('clock'),
    advanceClock: (seconds) => call('advanceClock', { body: { seconds } }),
    addReceiver: (receiver) => call('addReceiver', { body: receiver }),
    receivers: () => call('receivers'),
    removeReceiver: (id) => found(() => call('removeReceiver', { params: { id } })),
    attempts: () => call('attempts'),
    events: () => call('events'),
    redeliver: (eventId) => found(() => call('redeliver', { params: { eventId } })),
    scenario: () => call('scenario'),
    setScenario: async (scenario) => {
      await call('setScenario', { body: scenario });
    },
    dumpState: () => call('dumpState'),
    loadState: async (snapshot) => {
      await call('loadState', { body: snapshot });
    },
    addClient: (client) => call('addClient', { body: client }),
    createPushToCard: (input) => call('createPushToCard', { body: input }),
    addFault: (fault) => call('addFault', { body: fault }),
    faults: () => call('faults'),
    clearFaults: (options) => call('clearFaults', { query: { clientId: options?.clientId } }),
    requests: (filter = {}) => call('requests', { query: { ...filter } }),
    unmatchedRequests: () => call('unmatchedRequests'),
    coverage: () => call('coverage'),
  };
}
