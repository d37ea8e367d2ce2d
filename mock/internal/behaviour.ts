import type { OperationId, Spec } from '../../spec/index.ts';
import type { RecordPlan } from './learn/record-plan.ts';
import { newId } from './random.ts';
import { isoTimestamp } from './time.ts';

/**
 * Why the mock refuses a request, whatever the status: the unit a recording's refusals are learned
 * in (a sandbox answers a bad token 400 where pacu answers 401).
 */
export type RefusalKind =
  | 'bad-client'
  | 'missing-token'
  | 'bad-token'
  | 'scope'
  | 'unknown-path'
  | 'method'
  | 'content-type'
  | 'invalid-request'
  | 'unknown-id-in-path'
  | 'unknown-id-in-body'
  | 'not-a-funds-source'
  | 'reused-reference'
  | 'out-of-bounds';

/** A refusal as a sandbox answered it: its status, and its message with `{name}` for request values. */
export interface LearnedRefusal {
  readonly status: number;
  /** Undefined: pacu's own message (it names what was wrong). */
  readonly message: string | undefined;
}

/** How `GET /users` pages: by page number or by offset, under which query names, how many a page. */
export interface Paging {
  readonly style: 'page' | 'offset';
  /** The page number's name (style page) or the offset's (style offset). */
  readonly position: string;
  readonly size: string;
  /** The number of the first page, as answered in `page`. */
  readonly first: 0 | 1;
  readonly defaultSize: number;
  /** What a sandbox refused: a position below `minPosition`, a size outside `minSize`..`maxSize`. */
  readonly limits?: {
    readonly minPosition?: number;
    readonly minSize?: number;
    readonly maxSize?: number;
  };
}

/**
 * The amounts a sandbox took and refused for one payment type: it refuses at or below
 * `refusedAtOrBelow` and at or above `refusedFrom`; it took `takenFrom`..`takenTo` (undefined: no
 * end on that side, it took beyond pacu's own bound and refused nothing further), which the mock
 * takes too where pacu's own decision (above 0, at most 1,000,000) would refuse them.
 */
export interface AmountRange {
  readonly refusedAtOrBelow?: number;
  readonly refusedFrom?: number;
  readonly takenFrom?: number;
  readonly takenTo?: number;
}

/** One step of a lifecycle a sandbox showed: the status a payment has `after` seconds. */
export interface LearnedStep {
  readonly after: number;
  readonly status: string;
}

/** A header every /v3 answer carries: one value, or a fresh id each time. */
export type AnswerHeader =
  | { readonly name: string; readonly value: string }
  | { readonly name: string; readonly make: () => string };

/**
 * Every choice the description leaves open that the mock makes when it answers: pacu's decisions by
 * default, a recorded sandbox's where a recording showed them (`learnFromRecording`). Read by the
 * handlers; fixed for the mock's life (a reset keeps it).
 */
export interface Behaviour {
  /** The path the interface is served under, ending in the spec's version segment. */
  readonly basePath: string;
  /** Content-Type of /v3 answers; undefined: pacu's. */
  readonly contentType: string | undefined;
  readonly headers: readonly AnswerHeader[];
  readonly tokenType: string;
  /** Undefined: the mock's option, else the spec's decision. */
  readonly tokenLifetimeSeconds: number | undefined;
  /** An instant written the way records carry it. */
  stamp(ms: number): string;
  /** Write amounts with two decimals in the JSON text (`125.50`). */
  readonly moneyTwoDecimals: boolean;
  /** Names whose numbers are amounts (the spec's `number` fields). */
  readonly moneyKeys: ReadonlySet<string>;
  /** A fresh id of a kind (`txn`, `wpo`, `acct`, …). */
  newId(kind: string): string;
  readonly plans: Partial<Record<OperationId, RecordPlan>>;
  /** Success messages by operation; undefined: pacu's. */
  readonly messages: Partial<Record<OperationId, string>>;
  /** How an exact replay of a transfer is answered: its message and headers beyond a first answer's. */
  readonly replay: {
    readonly message: string | undefined;
    readonly headers: Readonly<Record<string, string>>;
  };
  /** A reused reference with another body: refused, or answered with the original record. */
  readonly reusedReference: 'refused' | 'original-record';
  /** A refusal of `kind` as a sandbox answered it: for the `field` refused first, then for any. */
  refusal(operation: OperationId | undefined, kind: RefusalKind, field?: string): LearnedRefusal | undefined;
  /** Operations a sandbox answered without a (valid) bearer token. */
  readonly bearerOptional: ReadonlySet<OperationId>;
  /** Operations a sandbox answered whatever the token's scope. */
  readonly scopeOptional: ReadonlySet<OperationId>;
  /** The scopes each operation needs, where single-scope tokens showed them (none: any scope). */
  readonly scopes: Partial<Record<OperationId, readonly string[]>>;
  /** Tokens carry every scope of the client, whatever was asked (a sandbox may grant so). */
  readonly grantsClientScopes: boolean;
  /** Amounts taken and refused, by operation and payment type (`usdTransfer:WIRE`, `walletPayout:wallet`). */
  readonly amounts: Readonly<Record<string, AmountRange>>;
  /** Paths a sandbox served as the path itself: with a trailing slash, in another case. */
  readonly paths: { readonly trailingSlash: boolean; readonly anyCase: boolean };
  /** Lifecycles `pacu record --follow` saw, by payment kind and type (`usd_transfer:ACH`). */
  readonly lifecycles: Readonly<Record<string, readonly LearnedStep[]>>;
  /** JSON bodies read whatever their Content-Type says. */
  readonly anyContentType: boolean;
  /** Fields pacu requires that a sandbox took requests without, by operation. */
  readonly optionalFields: Partial<Record<OperationId, readonly string[]>>;
  readonly paging: Paging;
  /** p2p statuses a recording answered, by user id: answered as recorded. */
  readonly p2p: ReadonlyMap<string, Readonly<Record<string, unknown>>>;
}

/** No amount learned: the hot path sees this very object and does nothing more (decision 177). */
export const NO_AMOUNTS: Readonly<Record<string, AmountRange>> = Object.freeze({});

/** pacu's paging: `page` from 1, `per_page`, 20 a page. */
export const PACU_PAGING: Paging = {
  style: 'page',
  position: 'page',
  size: 'per_page',
  first: 1,
  defaultSize: 20,
};

/** The names of fields of the spec's 200 answers whose schema passes `test`. */
function answerFields(
  spec: Spec,
  test: (schema: { type?: unknown; format?: unknown }) => boolean,
): Set<string> {
  const keys = new Set<string>();
  const visit = (node: unknown): void => {
    if (!node || typeof node !== 'object') return;
    if (Array.isArray(node)) {
      for (const item of node) visit(item);
      return;
    }
    const properties = (node as { properties?: Record<string, { type?: unknown }> }).properties ?? {};
    for (const [name, schema] of Object.entries(properties)) if (schema && test(schema)) keys.add(name);
    for (const value of Object.values(node)) visit(value);
  };
  for (const operation of spec.operations) visit(operation.responses.get(200)?.schema);
  return keys;
}

/** The names of the spec's `number` fields in answers: the amounts. */
export const moneyKeysOf = (spec: Spec): ReadonlySet<string> =>
  answerFields(spec, (schema) => schema.type === 'number');

/** The names of the spec's timestamp fields in answers. */
export const timestampKeysOf = (spec: Spec): ReadonlySet<string> =>
  answerFields(spec, (schema) => schema.format === 'date-time');

/** pacu's own decisions, for a mock without a recording. */
export function pacuBehaviour(spec: Spec): Behaviour {
  return {
    basePath: spec.basePath,
    contentType: undefined,
    headers: [],
    tokenType: 'Bearer',
    tokenLifetimeSeconds: undefined,
    stamp: isoTimestamp,
    moneyTwoDecimals: false,
    moneyKeys: moneyKeysOf(spec),
    newId,
    plans: {},
    messages: {},
    replay: { message: undefined, headers: {} },
    reusedReference: 'refused',
    refusal: () => undefined,
    bearerOptional: new Set(),
    scopeOptional: new Set(),
    scopes: {},
    grantsClientScopes: false,
    amounts: NO_AMOUNTS,
    paths: { trailingSlash: false, anyCase: false },
    lifecycles: {},
    anyContentType: false,
    optionalFields: {},
    paging: PACU_PAGING,
    p2p: new Map(),
  };
}
