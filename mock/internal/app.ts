import type { OperationSpec } from '../../spec/index.ts';
import { authenticateClient, authorizeBearer } from './auth.ts';
import type { MockContext } from './context.ts';
import type { OperationInput } from './handlers/handler.ts';
import { MockHttpError, type MockReply, type MockRequest } from './http-types.ts';
import { readFormBody, readJsonBody } from './json-body.ts';
import { OPERATION_HANDLERS } from './operations.ts';
import { createRouter } from './router.ts';
import { responseViolation } from './self-check.ts';
import { validateRequest } from './validation.ts';

export type RequestHandler = (request: MockRequest) => MockReply;

function errorReply(status: number, message: string, headers?: Record<string, string>): MockReply {
  return { status, body: { success: false, message }, ...(headers ? { headers } : {}) };
}

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
export function createApiHandler(context: MockContext, selfCheck: boolean): RequestHandler {
  const route = createRouter(context.spec);
  return (request) => {
    let operationId: OperationSpec['id'] | undefined;
    let reply: MockReply;
    try {
      const match = route(request.method, request.path);
      operationId = match.operationId;
      const operation = context.spec.operation(match.operationId);
      const input: OperationInput = { request, params: match.params, body: undefined };
      if (operation.security.kind === 'basic') input.client = authenticateClient(context, request);
      if (operation.security.kind === 'bearer')
        input.token = authorizeBearer(context, request, operation.security);
      input.body = readBody(operation, request);
      validateRequest(context, operation, request, match.relativePath, input.body);
      reply = OPERATION_HANDLERS[match.operationId](context, input);
    } catch (error) {
      if (error instanceof MockHttpError) reply = errorReply(error.status, error.message, error.headers);
      else {
        context.log(
          `pacu mock: unexpected error on ${request.method} ${request.path}: ${(error as Error)?.stack ?? String(error)}`,
        );
        return errorReply(500, 'internal error in pacu mock (logged)');
      }
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
