import type { FaultRecord, RequestObserver } from '../../http/index.ts';
import type { Spec } from '../../spec/index.ts';
import { errorReply, replyText } from './envelope.ts';
import type { FaultRegistry, FaultTarget } from './faults.ts';
import { bodyText, type MockReply, type MockRequest } from './http-types.ts';
import type { AnswerLayer } from './request-core.ts';
import { createRouter } from './router.ts';
import type { StoreView } from './store.ts';

export interface ConsumerLayerDeps {
  spec: Spec;
  /** Where the interface is served (the spec's base path, or a recorded sandbox's). */
  basePath: string;
  view: () => StoreView;
  faults: FaultRegistry;
  /** Who watches the interface's requests (the journal, coverage, any given in the options). */
  observers: readonly RequestObserver[];
}

/** The client a request speaks for, before authentication runs: a known bearer token's, or Basic's user. */
function clientOf(request: MockRequest, view: StoreView): string | undefined {
  const header = request.headers.authorization ?? '';
  const bearer = /^Bearer +(\S+)$/i.exec(header);
  if (bearer) return view.tokens.get(bearer[1] ?? '')?.clientId;
  const basic = /^Basic +([A-Za-z0-9+/=]+)$/i.exec(header);
  if (!basic) return undefined;
  const decoded = Buffer.from(basic[1] ?? '', 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  try {
    return colon > 0 ? decodeURIComponent(decoded.slice(0, colon)) : undefined;
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

/** What a fault makes of the request: the operation may run (`next`) or not, then the answer breaks. */
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
 * decide the answer around the operation (a layer: they change it), and every request on the
 * interface is told to the observers (start, match, end), which only watch: the journal and
 * coverage among them. Control API requests pass straight through.
 */
export function createConsumerLayer({
  spec,
  basePath,
  view,
  faults,
  observers,
}: ConsumerLayerDeps): AnswerLayer {
  const route = createRouter(spec, basePath);
  const operationOf = (request: MockRequest): string | undefined => {
    try {
      return route(request.method, request.path).operationId;
    } catch {
      return undefined;
    }
  };
  return async (exchange, next) => {
    if (exchange.target !== 'api') return next();
    const { request } = exchange;
    for (const observer of observers) observer.start?.(request);
    // Routing, the client and the body are looked at before the operation only when a fault may fire.
    const target: FaultTarget | undefined = faults.armed
      ? { operationId: operationOf(request), clientId: clientOf(request, view()), body: jsonOf(request) }
      : undefined;
    const fault = target?.operationId ? faults.fire(target) : undefined;
    const reply = fault ? await applyFault(fault, next) : await next();
    const operationId = exchange.operationId ?? target?.operationId;
    const clientId = exchange.clientId ?? target?.clientId;
    const status = reply.transport?.kind === 'drop' ? 0 : reply.status;
    if (operationId) for (const observer of observers) observer.match?.(request, operationId);
    const end = {
      request,
      operationId,
      clientId,
      status,
      fault: fault ? { id: fault.id, kind: fault.kind } : undefined,
    };
    for (const observer of observers) observer.end?.(end);
    return reply;
  };
}
