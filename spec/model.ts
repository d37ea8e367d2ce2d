import {
  DECIDED_LIMITS as GENERATED_LIMITS,
  type OperationId,
  type Scope,
} from './generated/spec-constants.ts';
import type { JSONSchema7 } from './json-schema.ts';

// What code needs before (or without) loading the description is generated from it
// (spec/scripts/render-spec-constants.ts); loadSpec refuses another description that disagrees.
export type { OperationId, Scope } from './generated/spec-constants.ts';
export { OPERATION_IDS, OPERATION_ROUTES, SCOPES } from './generated/spec-constants.ts';

/** `documented`: what the interface description states. `strict`: plus pacu's decisions. */
export type Profile = 'documented' | 'strict';

/**
 * The limits pacu decided, as data (x-pacu-limits in spec/openapi.yaml says the same, and loadSpec
 * refuses a file that disagrees): here as a constant for code that runs before any spec is loaded,
 * such as the mock's socket layer.
 */
export const DECIDED_LIMITS: DecidedLimits = GENERATED_LIMITS;

/** Limits pacu decided (x-pacu-limits in spec/openapi.yaml; the description shows none). */
export interface DecidedLimits {
  /** A request body over this many bytes gets 413. */
  readonly maxBodyBytes: number;
  /** JSON nested deeper than this many levels gets 400. */
  readonly maxJsonDepth: number;
}

/** How an operation authenticates: Basic client credentials, a bearer token with scopes, or nothing. */
export type OperationSecurity =
  | { readonly kind: 'basic' }
  | { readonly kind: 'bearer'; readonly scopes: readonly Scope[] }
  | { readonly kind: 'none' };

export interface ParameterSpec {
  readonly name: string;
  readonly in: 'path' | 'query' | 'header';
  readonly required: boolean;
  /** What the parameter names, in the spec's words (e.g. "Identifier of the virtual card."). */
  readonly description: string;
  readonly schema: JSONSchema7;
  readonly example?: unknown;
  /** Set when the parameter itself is a pacu decision (it does not exist in the description). */
  readonly decision?: string;
}

export interface RequestBodySpec {
  readonly mediaType: 'application/json' | 'application/x-www-form-urlencoded';
  readonly required: boolean;
  readonly schema: JSONSchema7;
  /** Named examples, values only. */
  readonly examples: Readonly<Record<string, unknown>>;
}

export interface ResponseSpec {
  readonly status: number;
  readonly description: string;
  readonly schema: JSONSchema7 | undefined;
  readonly examples: Readonly<Record<string, unknown>>;
  /** Set when the status itself is a pacu decision (every status but 200 and 400 is). */
  readonly decision?: string;
}

/**
 * One operation of a loaded description. `Id` is the nine operations of the interface for the spec
 * pacu ships; a description read with {@link loadOpenApi} may hold others, named by any string.
 */
export interface OperationSpec<Id extends string = OperationId> {
  readonly id: Id;
  readonly method: 'get' | 'post';
  /** Path template under the base URL, e.g. `/cards/{card_id}/transactions/{transaction_id}`. */
  readonly path: string;
  readonly summary: string;
  /** The operation's description in the spec (its notes from the interface description). */
  readonly description: string;
  readonly security: OperationSecurity;
  readonly parameters: readonly ParameterSpec[];
  readonly requestBody: RequestBodySpec | undefined;
  /** By status code; always has 200 and 400. */
  readonly responses: ReadonlyMap<number, ResponseSpec>;
  /** True when the interface description itself states that the operation takes a bearer token. */
  readonly bearerDocumented: boolean;
  /** The reason when the operation's security is (partly) a pacu decision. */
  readonly decision?: string;
}

export interface WebhookEventSpec {
  /** The event name, e.g. `usd_transfer.successful`. */
  readonly type: string;
  readonly summary: string;
  readonly schema: JSONSchema7;
  readonly examples: Readonly<Record<string, unknown>>;
}

/** One place where the interface description was silent and pacu chose. */
export interface Decision {
  /** JSON pointer into spec/openapi.yaml, e.g. `/components/schemas/Amount/allOf/0`. */
  readonly pointer: string;
  readonly reason: string;
}

export interface Spec<Id extends string = OperationId> {
  /** Absolute path of the YAML file this was loaded from. */
  readonly file: string;
  readonly title: string;
  readonly version: string;
  /** The path prefix of the server URL, `/v3`. */
  readonly basePath: string;
  /** Token lifetime in seconds, as decided. */
  readonly tokenLifetimeSeconds: number;
  /** The decided limits, as data. */
  readonly limits: DecidedLimits;
  /** The scope names of the bearer scheme. */
  readonly scopes: readonly Scope[];
  readonly operations: readonly OperationSpec<Id>[];
  operation(id: Id): OperationSpec<Id>;
  readonly webhooks: readonly WebhookEventSpec[];
  /** A component schema, fully dereferenced. */
  schema(name: string): JSONSchema7;
  readonly decisions: readonly Decision[];
  /** The parsed document with every `$ref` still in place, for tools (Prism, Spectral) that want it. */
  readonly document: Readonly<Record<string, unknown>>;
  /** SHA-256 of the description's text (hex): what the build's copies beside the file are keyed by. */
  readonly digest: string;
}
