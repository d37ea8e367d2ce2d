import {
  compileSchema,
  type JSONSchema7,
  type Profile,
  type SchemaCheck,
  type Spec,
  schemaForProfile,
} from '../../spec/index.ts';
import type { ApiResponse } from '../target/api-request.ts';

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

/** Compiled response schemas, per spec object (never shared between two specs that share operation names). */
const checkers = new WeakMap<Spec<string>, Map<string, SchemaCheck>>();

function cached(spec: Spec<string>, key: string, make: () => SchemaCheck): SchemaCheck {
  let bySpec = checkers.get(spec);
  if (!bySpec) {
    bySpec = new Map();
    checkers.set(spec, bySpec);
  }
  let check = bySpec.get(key);
  if (!check) {
    check = make();
    bySpec.set(key, check);
  }
  return check;
}

/** Compiled 200 schemas by profile, spec and operation: found without building a key (every judged success asks). */
const successCheckers: Record<Profile, WeakMap<Spec<string>, Map<string, SchemaCheck>>> = {
  documented: new WeakMap(),
  strict: new WeakMap(),
};

/** The 200 schema of an operation under a profile, compiled once per spec. */
function successChecker(spec: Spec<string>, operation: string, profile: Profile): SchemaCheck {
  let bySpec = successCheckers[profile].get(spec);
  if (!bySpec) {
    bySpec = new Map();
    successCheckers[profile].set(spec, bySpec);
  }
  let check = bySpec.get(operation);
  if (!check) {
    check = compileSchema(
      schemaForProfile(spec.operation(operation).responses.get(200)?.schema as JSONSchema7, profile),
    );
    bySpec.set(operation, check);
  }
  return check;
}

/** Compile what judging `operation`'s answers under `profile` asks for: its 200 schema and the stated error envelope. */
export function compileAnswerChecks(spec: Spec<string>, operation: string, profile: Profile): void {
  successChecker(spec, operation, profile);
  statedErrorCheck();
}

/** Why a success response breaks the success envelope and the operation's `data` shape, or undefined. */
export function successShapeProblem(
  spec: Spec<string>,
  operation: string,
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

/**
 * The description's "Error envelope: only `message` (string) and `success` (boolean, false)",
 * for a caller that has no spec at hand; with one, the operation's own error schema is read instead.
 */
const STATED_ERROR_ENVELOPE: JSONSchema7 = {
  type: 'object',
  required: ['success', 'message'],
  properties: { success: { const: false }, message: { type: 'string' } },
};

/**
 * "only": an envelope whose schema lists its members and says nothing of others admits no others,
 * whether or not the spec spelled `additionalProperties: false` out.
 */
function onlyItsMembers(schema: JSONSchema7): JSONSchema7 {
  return schema.properties && schema.additionalProperties === undefined
    ? { ...schema, additionalProperties: false }
    : schema;
}

/**
 * The documented error schema of an answer: the operation's for this status, else its 400 one
 * ("Every operation can answer HTTP 400 with the error envelope").
 */
function errorChecker(spec: Spec<string>, operation: string, status: number): SchemaCheck {
  const { responses } = spec.operation(operation);
  const own = responses.get(status)?.schema ? status : 400;
  return cached(spec, `${operation}:${own}:error`, () => {
    const schema = responses.get(own)?.schema ?? STATED_ERROR_ENVELOPE;
    return compileSchema(onlyItsMembers(schemaForProfile(schema, 'documented')));
  });
}

// Compiled on first use: a process that only prints help or a usage error never builds Ajv.
let statedError: SchemaCheck | undefined;
function statedErrorCheck(): SchemaCheck {
  statedError ??= compileSchema(onlyItsMembers(STATED_ERROR_ENVELOPE));
  return statedError;
}

/**
 * Why an error response breaks the error envelope, or undefined: judged against the documented
 * schema of the operation's error answer when `judged` names one, else against the description's words.
 */
export function errorShapeProblem(
  response: ApiResponse,
  judged?: { readonly spec: Spec<string>; readonly operation: string },
): string | undefined {
  const envelope = envelopeOf(response);
  if (!envelope) return `the error body is not a JSON object: ${response.text.slice(0, 80) || '(empty)'}`;
  const check = judged ? errorChecker(judged.spec, judged.operation, response.status) : statedErrorCheck();
  const issues = check(envelope);
  if (issues.length === 0) return undefined;
  return `the error body breaks the error envelope: ${issues
    .slice(0, 3)
    .map((issue) => `${issue.path} ${issue.message}`)
    .join('; ')}`;
}
