import type { OperationId, OperationSpec, RouteResult } from '../../spec/index.ts';
import { authenticateClient, authorizeBearer } from './auth.ts';
import type { MockContext } from './context.ts';
import { errorReply } from './envelope.ts';
import type { OperationInput } from './handlers/handler.ts';
import { MockHttpError, type MockReply, type MockRequest } from './http-types.ts';
import { readFormBody, readJsonBody } from './json-body.ts';
import { dressed, refusalReply } from './learned-answer.ts';
import { enforceLearned, neededSecurity, servedPath } from './learned-limits.ts';
import { OPERATION_HANDLERS } from './operations.ts';
import type { Exchange } from './request-core.ts';
import { readKeys } from './request-reads.ts';
import { createRouter } from './router.ts';
import { responseViolation } from './self-check.ts';
import type { StoredToken } from './state.ts';
import type { Maybe } from './store/maybe.ts';
import type { Found } from './store/state-store.ts';
import { validateRequest } from './validation.ts';

export type ApiHandler = (exchange: Exchange) => Maybe<MockReply>;

function readBody(operation: OperationSpec, request: MockRequest, anyContentType: boolean): unknown {
  if (!operation.requestBody) return undefined;
  return operation.requestBody.mediaType === 'application/json'
    ? readJsonBody(request, anyContentType)
    : readFormBody(request);
}

/** The bearer token the operation needs, as the behaviour has it (optional, or any scope, where a sandbox was so). */
function bearerToken(
  context: MockContext,
  operation: OperationSpec,
  request: MockRequest,
  found: Found,
): StoredToken | undefined {
  const { security } = operation;
  if (security.kind !== 'bearer') return undefined;
  const { behaviour } = context;
  const needed = neededSecurity(behaviour, operation.id, security);
  if (!behaviour.bearerOptional.has(operation.id))
    return authorizeBearer(context, request, needed, found.token);
  try {
    return authorizeBearer(context, request, needed, found.token);
  } catch {
    return undefined;
  }
}

/** A request routed to its operation, its body read (or why it cannot be), before the store is asked. */
interface Routed {
  operation: OperationSpec;
  input: OperationInput;
  relativePath: string;
  bodyError: unknown;
}

/**
 * The /v3 interface: route, ask the store for every key the request reads (once, together),
 * authenticate, validate with Prism, run the operation's handler. Every error becomes the error
 * envelope here and only here; `selfCheck` turns a reply that breaks the spec into a 500 naming
 * the break. On the memory store all of it runs at once; a database store's answers are awaited.
 */
export function createApiHandler(context: MockContext, selfCheck: boolean): ApiHandler {
  const route = createRouter(context.spec, context.behaviour.basePath);
  const { records } = context.store;
  const operate = (exchange: Exchange, routed: Routed, found: Found): Maybe<MockReply> => {
    const { operation, input } = routed;
    const { request } = exchange;
    input.found = found;
    if (operation.security.kind === 'basic') input.client = authenticateClient(request, found.client);
    const token = bearerToken(context, operation, request, found);
    if (token) input.token = token;
    exchange.clientId = input.client?.clientId ?? input.token?.clientId;
    if (routed.bodyError !== undefined) throw routed.bodyError;
    validateRequest(context, operation, request, routed.relativePath, input.body);
    enforceLearned(context.behaviour, operation.id, request, input.body);
    return OPERATION_HANDLERS[operation.id](context, input);
  };
  const finish = (operationId: OperationId | undefined, reply: MockReply): MockReply => {
    if (selfCheck && operationId) {
      const violation = responseViolation(context.spec, operationId, reply);
      if (violation) {
        context.log(`pacu mock self-check: ${violation}`);
        return errorReply(500, `pacu mock self-check: the response breaks the spec: ${violation}`);
      }
    }
    return dressed(context.behaviour, reply);
  };
  const refused = (exchange: Exchange, routed: Routed | undefined, error: unknown): MockReply => {
    if (!(error instanceof MockHttpError)) throw error; // the core logs it and answers 500
    return refusalReply(context, exchange.operationId, error, exchange.request, routed?.input);
  };
  /** The rest once the store answered: on the memory store at once, with no closure or promise made. */
  const answer = (exchange: Exchange, routed: Routed, found: Found): Maybe<MockReply> => {
    let reply: Maybe<MockReply>;
    try {
      reply = operate(exchange, routed, found);
    } catch (error) {
      return finish(exchange.operationId, refused(exchange, routed, error));
    }
    if (!(reply instanceof Promise)) return finish(exchange.operationId, reply);
    return reply.then(
      (done) => finish(exchange.operationId, done),
      (error: unknown) => finish(exchange.operationId, refused(exchange, routed, error)),
    );
  };
  return (exchange) => {
    const { request } = exchange;
    let routed: Routed | undefined;
    let found: Maybe<Found>;
    try {
      const path = servedPath(context.behaviour, context.spec, request.path);
      // A path a sandbox served in another form is routed as the form it stands for.
      const carrier: { route?: RouteResult } = path === request.path ? exchange : {};
      const match = route(request.method, path, carrier);
      if (carrier !== exchange) exchange.route = carrier.route;
      exchange.operationId = match.operationId;
      const operation = context.spec.operation(match.operationId);
      const input: OperationInput = { request, params: match.params, body: undefined, found: {} };
      let bodyError: unknown;
      try {
        input.body = readBody(operation, request, context.behaviour.anyContentType);
      } catch (error) {
        // Authentication answers first (decision 013): a bad body is told after it.
        bodyError = error;
      }
      routed = { operation, input, relativePath: match.relativePath, bodyError };
      found = exchange.found ?? records.read(readKeys(context, operation, request, match.params, input.body));
    } catch (error) {
      return finish(exchange.operationId, refused(exchange, routed, error));
    }
    if (!(found instanceof Promise)) return answer(exchange, routed, found);
    const current = routed;
    return found.then((answered) => answer(exchange, current, answered));
  };
}
