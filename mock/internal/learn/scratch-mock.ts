import type { RoutedExchange } from '../../../http/index.ts';
import {
  createRedactor,
  credentialValue,
  readRecordedCredential,
  recordedBytes,
} from '../../../http/index.ts';
import type { Spec } from '../../../spec/index.ts';
import { DEFAULT_SCENARIO } from '../../default-scenario.ts';
import { MOCK_DEFAULTS } from '../../options.ts';
import type { PrismRequestCheck } from '../../prism-adapter.ts';
import type { MockClient } from '../../types.ts';
import { createApiHandler } from '../app.ts';
import type { Behaviour } from '../behaviour.ts';
import type { MockContext } from '../context.ts';
import type { MockReply, MockRequest } from '../http-types.ts';
import type { MockState } from '../state.ts';
import { now } from '../store/maybe.ts';
import { createMemoryStore } from '../store/memory-store.ts';
import type { WebhookDispatcher } from '../webhooks.ts';

/** The scratch mock sends no webhook: it only learns how pacu would answer. */
const SILENT: WebhookDispatcher = {
  emit: () => '',
  redeliver: () => false,
  attempts: () => [],
  events: () => [],
  clearHistory() {},
  idle: () => Promise.resolve(),
  close: () => Promise.resolve(),
};

/** Tokens of the scratch mock outlive any recording. */
const SCRATCH_TOKEN_SECONDS = 10 * 365 * 86_400;

/** Request headers a recorded request is sent again with (credentials are the scratch mock's own). */
const SENT_HEADERS = new Set(['content-type', 'accept']);

/**
 * A pacu mock in-process on a copy of the recorded state, that answers recorded requests again the
 * way pacu's handlers would, with its own client and its own fresh tokens in place of the redacted
 * ones: what it refuses, and why, is what a recording's answers are compared with.
 */
export interface ScratchMock {
  /** pacu's answer to a recorded request (its refusal kind on a refusal), or the error it threw. */
  answer(exchange: RoutedExchange): MockReply | Error;
}

export function createScratchMock(deps: {
  readonly spec: Spec;
  readonly checkRequest: PrismRequestCheck;
  readonly state: MockState;
  readonly client: MockClient;
  readonly behaviour: Behaviour;
}): ScratchMock {
  // A memory store answers at once, so the scratch mock's answers stay synchronous.
  const store = createMemoryStore(
    {
      spec: deps.spec,
      seed: MOCK_DEFAULTS.seed,
      clock: 'manual',
      clockStart: Date.now(),
      scenario: DEFAULT_SCENARIO,
      journalSize: 0,
      redactor: createRedactor({}),
      basePath: deps.behaviour.basePath,
      webhookRetry: { ...MOCK_DEFAULTS.webhookRetry, delaysMs: [] },
      retention: { ms: Number.POSITIVE_INFINITY, records: 0 },
      log: () => {},
    },
    deps.state,
    undefined,
  );
  store.records.putClient({ ...deps.client, scopes: [...deps.client.scopes] });
  const context: MockContext = {
    spec: deps.spec,
    checkRequest: deps.checkRequest,
    clock: store.clock,
    webhooks: SILENT,
    tokenLifetimeSeconds: SCRATCH_TOKEN_SECONDS,
    behaviour: deps.behaviour,
    store,
    log: () => {},
  };
  const handle = createApiHandler(context, false);
  let token = '';
  const send = (request: MockRequest): MockReply =>
    now(handle({ request, target: 'api' }), 'the scratch mock');
  const base = deps.behaviour.basePath;
  const first = send({
    method: 'POST',
    path: `${base}/auth/token`,
    query: new URLSearchParams(),
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: credentialValue({ kind: 'basic', secret: 'right' }, { ...deps.client, token: '' }),
    },
    body: Buffer.from('grant_type=client_credentials'),
  });
  token = String((first.body as { data?: { access_token?: unknown } }).data?.access_token ?? '');
  return {
    answer(exchange) {
      const recorded = exchange.entry.request;
      const url = new URL(recorded.url);
      const headers: Record<string, string> = { host: url.host };
      for (const { name, value } of recorded.headers) {
        const lower = name.toLowerCase();
        if (SENT_HEADERS.has(lower)) headers[lower] = value;
        else if (lower === 'authorization')
          headers.authorization = credentialValue(readRecordedCredential(value), { ...deps.client, token });
      }
      try {
        const reply = send({
          method: recorded.method.toUpperCase(),
          path: url.pathname,
          query: url.searchParams,
          headers,
          body: recordedBytes(recorded.postData),
        });
        const issued = (reply.body as { data?: { access_token?: unknown } } | undefined)?.data?.access_token;
        if (exchange.operation?.id === 'getAccessToken' && typeof issued === 'string') token = issued;
        return reply;
      } catch (error) {
        return error as Error;
      }
    },
  };
}
