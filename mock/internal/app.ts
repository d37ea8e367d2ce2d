import { compileSchema, type OperationSpec } from '../../spec/index.ts';
import { authenticateClient, authorizeBearer } from './auth.ts';
import type { MockContext } from './context.ts';
import type { OperationInput } from './handlers/handler.ts';
import { MockHttpError, type MockReply, type MockRequest } from './http-types.ts';
import { readFormBody, readJsonBody } from './json-body.ts';
import { OPERATION_HANDLERS } from './operations.ts';
import { createRouter } from './router.ts';
import { responseViolation } from './self-check.ts';

export type RequestHandler = (request: MockRequest) => MockReply;

const DECIMALS_MESSAGE = 'must have at most two decimal places';

function errorReply(status: number, message: string, headers?: Record<string, string>): MockReply {
  return { status, body: { success: false, message }, ...(headers ? { headers } : {}) };
}

function queryRecord(query: URLSearchParams): Record<string, string | string[]> {
  const record: Record<string, string | string[]> = {};
  for (const key of new Set(query.keys())) {
    const values = query.getAll(key);
    record[key] = values.length === 1 ? (values[0] as string) : values;
  }
  return record;
}

function readBody(operation: OperationSpec, request: MockRequest): unknown {
  if (!operation.requestBody) return undefined;
  return operation.requestBody.mediaType === 'application/json'
    ? readJsonBody(request)
    : readFormBody(request);
}

/** Prism's checks, then the one keyword Prism does not know (x-pacu-max-decimals). */
function validate(
  context: MockContext,
  operation: OperationSpec,
  request: MockRequest,
  relativePath: string,
  body: unknown,
): void {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) if (value !== undefined) headers[name] = value;
  const messages = context.checkRequest(operation.id, {
    method: request.method,
    path: relativePath,
    query: queryRecord(request.query),
    headers,
    body,
  });
  if (messages.length === 0 && operation.requestBody?.mediaType === 'application/json') {
    for (const issue of compileSchema(operation.requestBody.schema)(body)) {
      if (issue.message === DECIMALS_MESSAGE)
        messages.push(`Request body property ${issue.path.slice(1)} ${DECIMALS_MESSAGE}`);
    }
  }
  if (messages.length > 0) throw new MockHttpError(400, `Invalid request: ${messages.join('; ')}`);
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
      validate(context, operation, request, match.relativePath, input.body);
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
