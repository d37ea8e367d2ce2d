import { compileSchema, type JSONSchema7, type OperationSpec, type SchemaIssue } from '../../spec/index.ts';
import { PACU_PAGING } from './behaviour.ts';
import type { MockContext } from './context.ts';
import { MockHttpError, type MockRequest } from './http-types.ts';
import { letBe } from './learned-limits.ts';

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
  schema: JSONSchema7 | undefined = operation.requestBody?.schema,
): SchemaIssue[] | undefined {
  if (request.query.size > 0) return undefined;
  const requestBody = operation.requestBody;
  if (!requestBody || !schema) return [];
  if (requestBody.mediaType !== 'application/json') return undefined;
  return [...compileSchema(schema)(body)];
}

/** `schema` without `names` among its `required` (its `allOf` members' included). */
function withoutRequired(schema: JSONSchema7, names: readonly string[]): JSONSchema7 {
  const copy: JSONSchema7 = { ...schema };
  if (copy.required) copy.required = copy.required.filter((name) => !names.includes(name));
  if (copy.allOf) copy.allOf = copy.allOf.map((member) => withoutRequired(member, names));
  return copy;
}

/** Keyed by the behaviour's own list: two mocks in one process learn different fields (the spec is shared). */
const relaxedSchemas = new WeakMap<readonly string[], JSONSchema7>();

/** The body schema a request is held to: less the fields a recorded sandbox took requests without. */
function bodySchema(context: MockContext, operation: OperationSpec): JSONSchema7 | undefined {
  const schema = operation.requestBody?.schema;
  const optional = context.behaviour.optionalFields[operation.id];
  if (!schema || !optional) return schema;
  let relaxed = relaxedSchemas.get(optional);
  if (!relaxed) {
    relaxed = withoutRequired(schema, optional);
    relaxedSchemas.set(optional, relaxed);
  }
  return relaxed;
}

/**
 * The query the spec's parameters judge: none when a recording taught the mock a paging of its own
 * (the spec's page and per_page are pacu's decision; the handler checks the learned names).
 */
function judgedQuery(
  context: MockContext,
  operation: OperationSpec,
  query: URLSearchParams,
): URLSearchParams {
  if (context.behaviour.paging === PACU_PAGING) return query;
  const decided = operation.parameters.filter((parameter) => parameter.in === 'query');
  return decided.length > 0 && decided.every((parameter) => parameter.decision !== undefined)
    ? new URLSearchParams()
    : query;
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
 * the trip through Prism (decision 010). The decimals keyword, which Prism ignores, is added after it.
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
  const query = judgedQuery(context, operation, request.query);
  const integers = queryIntegerProblems(operation, query);
  if (integers.length > 0) throw new MockHttpError(400, `Invalid request: ${integers.join('; ')}`);
  const schema = bodySchema(context, operation);
  const fast = precompiledIssues(
    operation,
    query === request.query ? request : { ...request, query },
    body,
    schema,
  );
  if (fast?.length === 0) return;
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) if (value !== undefined) headers[name] = value;
  const messages = context.checkRequest(operation.id, {
    method: request.method,
    path: relativePath,
    query: queryRecord(query),
    headers,
    body,
  });
  // Prism holds the request to the spec's decisions; what a recorded sandbox took is let be.
  const kept = messages.filter((message) => !letBe(context.behaviour, operation.id, body, message));
  messages.length = 0;
  messages.push(...kept);
  if (messages.length === 0 && schema && operation.requestBody?.mediaType === 'application/json') {
    for (const issue of fast ?? compileSchema(schema)(body)) {
      if (issue.message === DECIMALS_MESSAGE)
        messages.push(`Request body property ${issue.path.slice(1)} ${DECIMALS_MESSAGE}`);
    }
  }
  if (messages.length > 0) throw new MockHttpError(400, `Invalid request: ${messages.join('; ')}`);
}
