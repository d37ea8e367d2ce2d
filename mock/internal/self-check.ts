import { compileSchema, type OperationId, type Spec } from '../../spec/index.ts';
import type { MockReply } from './http-types.ts';

/** Statuses any operation may answer for reasons outside it (the limits decision). */
const TRANSPORT_STATUSES = new Set([413]);

/** Why a reply breaks the spec's response for its operation, or undefined when it conforms. */
export function responseViolation(
  spec: Spec,
  operationId: OperationId,
  reply: MockReply,
): string | undefined {
  if (TRANSPORT_STATUSES.has(reply.status)) return undefined;
  const response = spec.operation(operationId).responses.get(reply.status);
  if (!response) return `${operationId} does not document status ${reply.status}`;
  if (!response.schema) return undefined;
  // Judge what the client receives: JSON has no Infinity or NaN (they are sent as null).
  const issues = compileSchema(response.schema)(JSON.parse(JSON.stringify(reply.body)));
  if (issues.length === 0) return undefined;
  return `${operationId} ${reply.status}: ${issues.map((issue) => `${issue.path} ${issue.message}`).join('; ')}`;
}
