import type { RoutedExchange } from '../../../http/index.ts';
import {
  type JSONSchema7,
  type OperationId,
  type OperationSpec,
  schemaForProfile,
} from '../../../spec/index.ts';
import type { Behaviour } from '../behaviour.ts';
import type { MockReply } from '../http-types.ts';
import type { ReportDraft } from './learned-report.ts';
import { REFUSAL_ABOUT } from './refusal-kinds.ts';
import { dataOf, entryOf } from './samples.ts';

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** The behaviour a scratch mock runs with while learning: what the sandbox let be goes into it. */
export type LearningBehaviour = Mutable<Behaviour> & {
  bearerOptional: Set<OperationId>;
  scopeOptional: Set<OperationId>;
  optionalFields: Partial<Record<OperationId, string[]>>;
};

function requiredOf(schema: JSONSchema7): string[] {
  return [...(schema.required ?? []), ...(schema.allOf ?? []).flatMap((member) => requiredOf(member))];
}

/**
 * A recorded success that pacu's mock refuses: what did the sandbox let be? A token (on an operation
 * the description does not say takes one), a scope, a content type, a field pacu requires and the
 * description does not, a reused reference (answered with its original record). Learned into
 * `behaviour` (true), or reported as contradicting the description or left (false).
 */
export function learnLeniency(
  exchange: RoutedExchange,
  reply: MockReply,
  behaviour: LearningBehaviour,
  firstIds: ReadonlyMap<string, unknown>,
  report: ReportDraft,
): boolean {
  const operation = exchange.operation as OperationSpec;
  const entry = entryOf(exchange);
  switch (reply.refusal) {
    case 'missing-token':
    case 'bad-token':
      if (operation.bearerDocumented) {
        report.contradiction(
          [entry],
          `${operation.id} was answered 200 without a valid bearer token: the description states it takes one`,
        );
        return false;
      }
      behaviour.bearerOptional.add(operation.id);
      report.learned(
        `bearer.${operation.id}`,
        `whether ${operation.id} needs a bearer token`,
        false,
        'not needed',
        [entry],
      );
      return true;
    case 'scope':
      behaviour.scopeOptional.add(operation.id);
      report.learned(`scope.${operation.id}`, `whether ${operation.id} needs a scope`, false, 'any token', [
        entry,
      ]);
      return true;
    case 'content-type':
      behaviour.anyContentType = true;
      report.learned('request.contentType', 'JSON bodies under another Content-Type', true, 'read as JSON', [
        entry,
      ]);
      return true;
    case 'invalid-request': {
      const schema = operation.requestBody?.schema;
      const body = exchange.requestJson as Record<string, unknown> | undefined;
      if (!schema || !body || typeof body !== 'object') return false;
      const stated = requiredOf(schemaForProfile(schema, 'documented'));
      const missing = requiredOf(schema).filter((name) => body[name] === undefined);
      const contradicting = missing.filter((name) => stated.includes(name));
      if (contradicting.length > 0) {
        report.contradiction(
          [entry],
          `${operation.id} was answered 200 without ${contradicting.join(', ')}, which the description requires`,
        );
        return false;
      }
      if (missing.length === 0) return false;
      const known = behaviour.optionalFields[operation.id] ?? [];
      behaviour.optionalFields[operation.id] = [...new Set([...known, ...missing])];
      for (const name of missing)
        report.learned(
          `required.${operation.id}.${name}`,
          `whether ${operation.id} requires ${name}`,
          false,
          'not required',
          [entry],
        );
      return true;
    }
    case 'reused-reference': {
      const reference = (exchange.requestJson as { reference?: unknown } | undefined)?.reference;
      const original = typeof reference === 'string' ? firstIds.get(reference) : undefined;
      if (original === undefined || dataOf(exchange)?.transaction_id !== original) {
        report.contradiction(
          [entry],
          `a reference used again with another body made another transaction: the reference is the idempotency key`,
        );
        return false;
      }
      behaviour.reusedReference = 'original-record';
      report.learned(
        'reusedReference',
        REFUSAL_ABOUT['reused-reference'],
        'original-record',
        'answered 200 with the original record',
        [entry],
      );
      return true;
    }
    default:
      return false;
  }
}
