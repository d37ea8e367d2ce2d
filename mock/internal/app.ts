import type { OperationId, OperationSpec } from '../../spec/index.ts';
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
import { createRouter } from './router.ts';
import { responseViolation } from './self-check.ts';
import type { StoredToken } from './state.ts';
import { validateRequest } from './validation.ts';

export type ApiHandler = (exchange: Exchange) => MockReply;

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
): StoredToken | undefined {
  const { security } = operation;
  if (security.kind !== 'bearer') return undefined;
  const { behaviour } = context;
  const needed = neededSecurity(behaviour, operation.id, security);
  if (!behaviour.bearerOptional.has(operation.id)) return authorizeBearer(context, request, needed);
  try {
    return authorizeBearer(context, request, needed);
  } catch {
    return undefined;
  }
}

/**
 * The /v3 interface: route, authenticate, validate with Prism, run the operation's handler. Every
 * error becomes the error envelope here and only here; `selfCheck` turns a reply that breaks the
 * spec into a 500 naming the break.
 */
export function createApiHandler(context: MockContext, selfCheck: boolean): ApiHandler {
  const route = createRouter(context.spec, context.behaviour.basePath);
  return (exchange) => {
    const { request } = exchange;
    let operationId: OperationId | undefined;
    let input: OperationInput | undefined;
    let reply: MockReply;
    try {
      const match = route(request.method, servedPath(context.behaviour, context.spec, request.path));
      operationId = match.operationId;
      exchange.operationId = operationId;
      const operation = context.spec.operation(match.operationId);
      input = { request, params: match.params, body: undefined };
      if (operation.security.kind === 'basic') input.client = authenticateClient(context, request);
      const token = bearerToken(context, operation, request);
      if (token) input.token = token;
      exchange.clientId = input.client?.clientId ?? input.token?.clientId;
      input.body = readBody(operation, request, context.behaviour.anyContentType);
      validateRequest(context, operation, request, match.relativePath, input.body);
      enforceLearned(context.behaviour, match.operationId, request, input.body);
      reply = OPERATION_HANDLERS[match.operationId](context, input);
    } catch (error) {
      if (!(error instanceof MockHttpError)) throw error; // the core logs it and answers 500
      reply = refusalReply(context, operationId, error, request, input);
    }
    if (selfCheck && operationId) {
      const violation = responseViolation(context.spec, operationId, reply);
      if (violation) {
        context.log(`pacu mock self-check: ${violation}`);
        return errorReply(500, `pacu mock self-check: the response breaks the spec: ${violation}`);
      }
    }
    return dressed(context.behaviour, reply);
  };
}
