import type { OperationSpec } from '../../spec/index.ts';
import { authenticateClient, authorizeBearer } from './auth.ts';
import type { MockContext } from './context.ts';
import { errorReply } from './envelope.ts';
import type { OperationInput } from './handlers/handler.ts';
import { MockHttpError, type MockReply, type MockRequest } from './http-types.ts';
import { readFormBody, readJsonBody } from './json-body.ts';
import { OPERATION_HANDLERS } from './operations.ts';
import type { Exchange } from './request-core.ts';
import { createRouter } from './router.ts';
import { responseViolation } from './self-check.ts';
import { validateRequest } from './validation.ts';

export type ApiHandler = (exchange: Exchange) => MockReply;

function readBody(operation: OperationSpec, request: MockRequest): unknown {
  if (!operation.requestBody) return undefined;
  return operation.requestBody.mediaType === 'application/json'
    ? readJsonBody(request)
    : readFormBody(request);
}

/**
 * The /v3 interface: route, authenticate, validate with Prism, run the operation's handler. Every
 * error becomes the error envelope here and only here; `selfCheck` turns a reply that breaks the
 * spec into a 500 naming the break.
 */
export function createApiHandler(context: MockContext, selfCheck: boolean): ApiHandler {
  const route = createRouter(context.spec);
  return (exchange) => {
    const { request } = exchange;
    let operationId: OperationSpec['id'] | undefined;
    let reply: MockReply;
    try {
      const match = route(request.method, request.path);
      operationId = match.operationId;
      exchange.operationId = operationId;
      const operation = context.spec.operation(match.operationId);
      const input: OperationInput = { request, params: match.params, body: undefined };
      if (operation.security.kind === 'basic') input.client = authenticateClient(context, request);
      if (operation.security.kind === 'bearer')
        input.token = authorizeBearer(context, request, operation.security);
      exchange.clientId = input.client?.clientId ?? input.token?.clientId;
      input.body = readBody(operation, request);
      validateRequest(context, operation, request, match.relativePath, input.body);
      reply = OPERATION_HANDLERS[match.operationId](context, input);
    } catch (error) {
      if (!(error instanceof MockHttpError)) throw error; // the core logs it and answers 500
      reply = errorReply(error.status, error.message, error.headers);
    }
    if (selfCheck && operationId) {
      const violation = responseViolation(context.spec, operationId, reply);
      if (violation) {
        context.log(`pacu mock self-check: ${violation}`);
        return errorReply(500, `pacu mock self-check: the response breaks the spec: ${violation}`);
      }
    }
    return reply;
  };
}
