import { compileSchema, type OperationSpec, type SchemaIssue } from '../../spec/index.ts';
import type { MockContext } from './context.ts';
import { MockHttpError, type MockRequest } from './http-types.ts';

const DECIMALS_MESSAGE = 'must have at most two decimal places';

/**
 * The precompiled check of the hot path: the operation's JSON body schema through ajv (which also
 * knows x-pacu-max-decimals). Undefined when it cannot decide alone: a query string or a form body
 * is left to Prism. mock/internal/validation.test.ts shows it agrees with Prism's validateInput.
 */
export function precompiledIssues(
  operation: OperationSpec,
  request: MockRequest,
  body: unknown,
): SchemaIssue[] | undefined {
  if (request.query.size > 0) return undefined;
  const requestBody = operation.requestBody;
  if (!requestBody) return [];
  if (requestBody.mediaType !== 'application/json') return undefined;
  return [...compileSchema(requestBody.schema)(body)];
}

function queryRecord(query: URLSearchParams): Record<string, string | string[]> {
  const record: Record<string, string | string[]> = {};
  for (const key of new Set(query.keys())) {
    const values = query.getAll(key);
    record[key] = values.length === 1 ? (values[0] as string) : values;
  }
  return record;
}

/**
 * Prism decides validity and words the messages; the precompiled check only spares valid requests
 * the trip through Prism (~30 µs). The decimals keyword, which Prism ignores, is added after it.
 */
/**
 * Query integers in plain decimal only: Prism (and ajv) read `1e999` as Infinity, `0x10` as 16 and
 * an empty value as absent, each of which would pass `type: integer`.
 */
function queryIntegerProblems(operation: OperationSpec, query: URLSearchParams): string[] {
  const problems: string[] = [];
  for (const parameter of operation.parameters) {
    if (parameter.in !== 'query' || parameter.schema.type !== 'integer') continue;
    for (const value of query.getAll(parameter.name)) {
      if (!/^-?[0-9]{1,15}$/.test(value))
        problems.push(
          `query parameter ${parameter.name} must be a whole number, got ${JSON.stringify(value)}`,
        );
    }
  }
  return problems;
}

export function validateRequest(
  context: MockContext,
  operation: OperationSpec,
  request: MockRequest,
  relativePath: string,
  body: unknown,
): void {
  const integers = queryIntegerProblems(operation, request.query);
  if (integers.length > 0) throw new MockHttpError(400, `Invalid request: ${integers.join('; ')}`);
  const fast = precompiledIssues(operation, request, body);
  if (fast?.length === 0) return;
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
    for (const issue of fast ?? compileSchema(operation.requestBody.schema)(body)) {
      if (issue.message === DECIMALS_MESSAGE)
        messages.push(`Request body property ${issue.path.slice(1)} ${DECIMALS_MESSAGE}`);
    }
  }
  if (messages.length > 0) throw new MockHttpError(400, `Invalid request: ${messages.join('; ')}`);
}
