import { CHECKS, type CheckId } from '../checks.ts';
import type { Change, OperationRef, Origin, Side } from '../glossary.ts';
import type { EchoRequirement } from './echo-facts.ts';

/** Where a body or parameter sits, and how its changes are told. */
export interface Place {
  readonly side: Side;
  readonly operation?: OperationRef;
  readonly status?: string;
  /** "the request of usdTransfer", "the 200 response of usdTransfer", "the usd_transfer.failed webhook" */
  readonly subject: string;
  /** Who reads or sends it: "clients", or "receivers" for a webhook. */
  readonly who: string;
  /** What the schema's root is called in sentences: "the body", or a parameter's name. @default 'the body' */
  readonly root?: string;
  /** The origin of everything inside: `decision` when the body or parameter sits in a decision node. */
  readonly base?: Origin;
  /** A record the answer echoes its request into: what each version's description requires of `$.data`. */
  readonly echo?: { readonly before?: EchoRequirement; readonly after?: EchoRequirement };
}

export interface ChangeDetails {
  readonly path: string;
  readonly field?: string;
  readonly message: string;
  readonly cites?: readonly string[];
  readonly before?: unknown;
  readonly after?: unknown;
}

/** Collects changes in order; the severity comes from the check, never from the caller. */
export interface Emitter {
  emit(check: CheckId, origin: Origin, place: Place, details: ChangeDetails): void;
  readonly changes: Change[];
}

export function createEmitter(): Emitter {
  const changes: Change[] = [];
  return {
    changes,
    emit(check, origin, place, details) {
      changes.push({
        check,
        severity: CHECKS[check].severity,
        origin,
        side: place.side,
        path: details.path,
        ...(place.operation ? { operation: place.operation } : {}),
        ...(place.status !== undefined ? { status: place.status } : {}),
        ...(details.field !== undefined ? { field: details.field } : {}),
        message: details.message,
        ...(details.cites ? { cites: details.cites } : {}),
        ...(details.before !== undefined ? { before: details.before } : {}),
        ...(details.after !== undefined ? { after: details.after } : {}),
      });
    },
  };
}

/** `usdTransfer`, or `POST /payments/usd/direct` when the operation has no id. */
export function operationName(operation: OperationRef): string {
  if (operation.kind === 'webhook') return `the ${operation.event} webhook`;
  return operation.id ?? `${operation.method.toUpperCase()} ${operation.path}`;
}

/** `$.data.routing_number` → `` `data.routing_number` ``; the root is "the body". */
export function fieldName(field: string, root = 'the body'): string {
  return field === '$' ? root : `\`${field.replace(/^\$\.?/, '')}\``;
}

export const list = (values: readonly unknown[]): string =>
  values.map((value) => (typeof value === 'string' ? `\`${value}\`` : JSON.stringify(value))).join(', ');

/** The request side of an operation, as its sentences name it. */
export const requestPlace = (operation: OperationRef): Place => ({
  side: 'request',
  operation,
  subject: `the request of ${operationName(operation)}`,
  who: 'clients',
});
