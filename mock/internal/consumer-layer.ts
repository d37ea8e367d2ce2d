import { bodyText, type FaultRecord, parseAuthorization } from '../../http/index.ts';
import type { OperationSpec, Spec } from '../../spec/index.ts';
import { errorReply, replyText } from './envelope.ts';
import type { FaultTarget } from './faults.ts';
import type { MockReply, MockRequest } from './http-types.ts';
import type { AnswerLayer, Exchange } from './request-core.ts';
import { createRouter } from './router.ts';
import type { Maybe } from './store/maybe.ts';
import type { Found, ReadKeys, StateStore } from './store/state-store.ts';

export interface ConsumerLayerDeps {
  spec: Spec;
  /** Where the interface is served (the spec's base path, or a recorded sandbox's). */
  basePath: string;
  store: StateStore;
  /** Every key the request will read (request-reads.ts), so the store is asked once for all. */
  readKeys(
    operation: OperationSpec,
    request: MockRequest,
    params: Record<string, string>,
    body: unknown,
  ): ReadKeys;
}

/** The client a request speaks for, before authentication runs: a known bearer token's, or Basic's user. */
function clientOf(request: MockRequest, found: Found): string | undefined {
  const credentials = parseAuthorization(request.headers.authorization);
  if (credentials?.scheme === 'bearer') return found.token?.clientId;
  if (credentials?.scheme !== 'basic' || !credentials.user) return undefined;
  try {
    return decodeURIComponent(credentials.user);
  } catch {
    return undefined;
  }
}

function jsonOf(request: MockRequest): unknown {
  // Only bodies a fault could match on (reference, amount): JSON ones.
  if (request.body.length === 0 || !/json/i.test(request.headers['content-type'] ?? '')) return undefined;
  try {
    return JSON.parse(bodyText(request));
  } catch {
    return undefined;
  }
}

const DROP: MockReply = { status: 0, body: null, transport: { kind: 'drop' } };

/** What a fault makes of the request: the operation may run (`next`) or not, andThen the answer breaks. */
async function applyFault(fault: FaultRecord, next: () => Promise<MockReply>): Promise<MockReply> {
  const said = `pacu fault ${fault.id} (${fault.kind} on ${fault.operation})`;
  const statusReply = (): MockReply =>
    errorReply(
      fault.status ?? 500,
      `${said}: injected HTTP ${fault.status}`,
      fault.retryAfter !== undefined ? { 'retry-after': String(fault.retryAfter) } : undefined,
    );
  switch (fault.kind) {
    case 'status':
      return statusReply();
    case 'reset':
      return DROP;
    case 'delay':
      await new Promise((resolve) => setTimeout(resolve, fault.ms ?? 0));
      return next();
    case 'empty':
      await next();
      return { status: 200, body: null, transport: { kind: 'raw', body: '' } };
    case 'malformed': {
      const text = replyText(await next());
      return {
        status: 200,
        body: null,
        transport: { kind: 'raw', body: text.slice(0, Math.ceil(text.length / 2)) },
      };
    }
    case 'commit-then-status':
      await next();
      return statusReply();
    case 'commit-then-reset':
      await next();
      return DROP;
  }
}

/**
 * The consumer's side of the mock, hung on the request core once (not on each handler): faults
 * decide the answer around the operation (a layer: they change it). Routing, the client and the
 * body are looked at before the operation only when a fault may fire; what it learns is left on
 * the exchange for the request pipeline's observers. Control API requests pass straight through.
 */
export function createConsumerLayer({ spec, basePath, store, readKeys }: ConsumerLayerDeps): AnswerLayer {
  const route = createRouter(spec, basePath);
  const { faults } = store;
  const routed = (exchange: Exchange): ReturnType<typeof route> | undefined => {
    try {
      return route(exchange.request.method, exchange.request.path, exchange);
    } catch {
      return undefined;
    }
  };
  return async (exchange, next) => {
    if (exchange.target !== 'api' || !faults.armed) return next();
    const { request } = exchange;
    const match = routed(exchange);
    const body = jsonOf(request);
    let found: Found = {};
    if (match) {
      const reads: Maybe<Found> = store.records.read(
        readKeys(spec.operation(match.operationId), request, match.params, body),
      );
      found = reads instanceof Promise ? await reads : reads;
      // A shared store is asked once a request: the operation reads what was read here.
      if (store.shared) exchange.found = found;
    }
    const target: FaultTarget = { operationId: match?.operationId, clientId: clientOf(request, found), body };
    const fault = target.operationId ? await faults.fire(target) : undefined;
    // A delayed request reads again after its delay: what it read before may have changed.
    if (fault?.kind === 'delay') delete exchange.found;
    const reply = fault ? await applyFault(fault, next) : await next();
    exchange.operationId ??= target.operationId as Exchange['operationId'];
    exchange.clientId ??= target.clientId;
    if (fault) exchange.fault = { id: fault.id, kind: fault.kind };
    return reply;
  };
}
