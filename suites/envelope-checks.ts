import {
  compileSchema,
  type JSONSchema7,
  type OperationId,
  type Profile,
  type SchemaCheck,
  type Spec,
  schemaForProfile,
} from '../spec/index.ts';
import type { ApiResponse } from './api-request.ts';

/** The body as the envelope: an object with `success`, `message` and maybe `data`, or undefined. */
function envelopeOf(response: ApiResponse): Record<string, unknown> | undefined {
  const body = response.json;
  return body && typeof body === 'object' && !Array.isArray(body)
    ? (body as Record<string, unknown>)
    : undefined;
}

/** The `data` of a success envelope, or undefined. */
export function dataOf(response: ApiResponse): Record<string, unknown> | undefined {
  const data = envelopeOf(response)?.data;
  return data && typeof data === 'object' && !Array.isArray(data)
    ? (data as Record<string, unknown>)
    : undefined;
}

export const isSuccess = (response: ApiResponse): boolean => response.status >= 200 && response.status < 300;

/** Compiled 200 schemas, per spec object (never shared between two specs that share operation names). */
const checkers = new WeakMap<Spec, Map<string, SchemaCheck>>();

/** The 200 schema of an operation under a profile, compiled once per spec. */
function successChecker(spec: Spec, operation: OperationId, profile: Profile): SchemaCheck {
  let bySpec = checkers.get(spec);
  if (!bySpec) {
    bySpec = new Map();
    checkers.set(spec, bySpec);
  }
  const key = `${operation}:${profile}`;
  let check = bySpec.get(key);
  if (!check) {
    const schema = spec.operation(operation).responses.get(200)?.schema as JSONSchema7;
    check = compileSchema(schemaForProfile(schema, profile));
    bySpec.set(key, check);
  }
  return check;
}

/** Why a success response breaks the success envelope and the operation's `data` shape, or undefined. */
export function successShapeProblem(
  spec: Spec,
  operation: OperationId,
  profile: Profile,
  response: ApiResponse,
): string | undefined {
  if (response.json === undefined) return 'the body is not JSON';
  const issues = successChecker(spec, operation, profile)(response.json);
  if (issues.length === 0) return undefined;
  return `the success body breaks the ${operation} response schema: ${issues
    .slice(0, 3)
    .map((issue) => `${issue.path} ${issue.message}`)
    .join('; ')}`;
}

/** Why an error response breaks the error envelope (`success: false`, a string `message`), or undefined. */
export function errorShapeProblem(response: ApiResponse): string | undefined {
  const envelope = envelopeOf(response);
  if (!envelope) return `the error body is not a JSON object: ${response.text.slice(0, 80) || '(empty)'}`;
  if (envelope.success !== false) return `success is ${JSON.stringify(envelope.success)}, expected false`;
  if (typeof envelope.message !== 'string') return 'message is missing or not a string';
  return undefined;
}
