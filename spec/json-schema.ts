import type { JSONSchema7 as BaseSchema } from 'json-schema';

/** A JSON Schema node of spec/openapi.yaml, with pacu's own extension keywords. */
export type JSONSchema7 = Omit<BaseSchema, 'allOf' | 'anyOf' | 'oneOf' | 'properties' | 'items'> & {
  allOf?: JSONSchema7[];
  anyOf?: JSONSchema7[];
  oneOf?: JSONSchema7[];
  properties?: Record<string, JSONSchema7>;
  items?: JSONSchema7;
  /** Marks a node as pacu's choice where the interface description is silent; the value says why. */
  'x-pacu-decision'?: string;
  /** Numbers carry at most this many decimal places (JSON Schema's multipleOf is unsafe for floats). */
  'x-pacu-max-decimals'?: number;
};
