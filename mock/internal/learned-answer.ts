import { bodyText } from '../../http/index.ts';
import type { OperationId } from '../../spec/index.ts';
import type { Behaviour } from './behaviour.ts';
import type { MockContext } from './context.ts';
import { errorReply } from './envelope.ts';
import type { OperationInput } from './handlers/handler.ts';
import type { MockHttpError, MockReply, MockRequest } from './http-types.ts';
import { withTwoDecimals } from './learn/money-form.ts';
import { refusedField } from './learn/refusal-kinds.ts';
import { neededSecurity } from './learned-limits.ts';

/**
 * What a refused request carried, by name: its path (`path`, and `route` under the base path), the
 * operation's scope, path parameters and body fields (JSON or form).
 */
function requestValues(
  context: MockContext,
  operation: OperationId | undefined,
  request: MockRequest,
  input: OperationInput | undefined,
): Record<string, unknown> {
  const { basePath } = context.behaviour;
  const security = operation ? context.spec.operation(operation).security : undefined;
  // The scopes the operation needs here: a recorded sandbox's where it showed them.
  const needed =
    operation && security?.kind === 'bearer'
      ? neededSecurity(context.behaviour, operation, security)
      : undefined;
  const where = {
    path: request.path,
    route: request.path.startsWith(`${basePath}/`) ? request.path.slice(basePath.length) : request.path,
    ...(needed ? { scope: needed.scopes.join(',') } : {}),
  };
  if (!input) return where;
  let body: unknown = input.body;
  if (typeof body === 'string') body = Object.fromEntries(new URLSearchParams(body));
  if (body === undefined && input.request.body.length > 0) {
    try {
      body = JSON.parse(bodyText(input.request));
    } catch {
      body = undefined;
    }
  }
  const fields = body && typeof body === 'object' && !Array.isArray(body) ? body : {};
  return { ...where, ...input.params, ...fields };
}

/** `{name}` in a learned message filled with what this request carried under that name. */
function filled(template: string, values: Record<string, unknown>): string {
  return template.replace(/\{([A-Za-z0-9_]+)\}/g, (all, name: string) =>
    values[name] === undefined ? all : String(values[name]),
  );
}

const CHALLENGED = new Set([401, 403]);

/**
 * The error envelope for a refusal: pacu's status and message, or the ones a recorded sandbox gave
 * the same kind of refusal. A challenge header stays only on a status that takes one.
 */
export function refusalReply(
  context: MockContext,
  operation: OperationId | undefined,
  error: MockHttpError,
  request: MockRequest,
  input: OperationInput | undefined,
): MockReply {
  const { behaviour } = context;
  // Asked per field only when the kind was learned at all: the field is read from pacu's message.
  const any = behaviour.refusal(operation, error.kind);
  if (!any) return { ...errorReply(error.status, error.message, error.headers), refusal: error.kind };
  const spec = operation ? context.spec.operation(operation) : undefined;
  const field = refusedField(spec, error.message, [behaviour.paging.position, behaviour.paging.size]);
  const learned = behaviour.refusal(operation, error.kind, field) ?? any;
  const message =
    learned.message === undefined
      ? error.message
      : filled(learned.message, requestValues(context, operation, request, input));
  const headers = CHALLENGED.has(learned.status) ? error.headers : undefined;
  const challenge =
    learned.status === 401 && !headers?.['www-authenticate']
      ? { 'www-authenticate': error.kind === 'bad-client' ? 'Basic realm="pacu"' : 'Bearer realm="pacu"' }
      : undefined;
  const allHeaders = headers || challenge ? { ...headers, ...challenge } : undefined;
  return { ...errorReply(learned.status, message, allHeaders), refusal: error.kind };
}

/** An answer as the recorded sandbox writes them: its content type, its headers, its amounts. */
export function dressed(behaviour: Behaviour, reply: MockReply): MockReply {
  const { contentType, headers } = behaviour;
  if (!contentType && headers.length === 0 && !behaviour.moneyTwoDecimals) return reply;
  const extra: Record<string, string> = {};
  for (const header of headers) extra[header.name] = 'value' in header ? header.value : header.make();
  if (contentType) extra['content-type'] = contentType;
  return {
    ...reply,
    headers: { ...extra, ...reply.headers },
    ...(behaviour.moneyTwoDecimals && reply.status === 200 && !reply.transport
      ? { text: withTwoDecimals(reply.body, behaviour.moneyKeys) }
      : {}),
  };
}
