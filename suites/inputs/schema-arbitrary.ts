import fc from 'fast-check';
import type { JSONSchema7 } from '../../spec/index.ts';

/** Arbitraries for values the schema cannot express (a checksum, an id that must exist), by JSON pointer. */
export type ArbitraryOverrides = Readonly<Record<string, fc.Arbitrary<unknown>>>;

/** Largest amount generated when a schema sets no maximum: 1,000,000.00. */
const DEFAULT_MAX_CENTS = 100_000_000;
/** Strings are this long or shorter three times in four; the rest reach the schema's maxLength. */
const SHORT_LENGTH = 24;
const WORD_CHARS = [...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'];
const LOWER_CHARS = [...'abcdefghijklmnopqrstuvwxyz0123456789'];

/** Flatten `allOf` members into one schema: properties and required lists merged, other keywords overlaid. */
export function mergeAllOf(schema: JSONSchema7): JSONSchema7 {
  if (!schema.allOf) return schema;
  const { allOf, ...rest } = schema;
  let merged: JSONSchema7 = rest;
  for (const member of allOf.map((m) => mergeAllOf(m as JSONSchema7))) {
    merged = {
      ...merged,
      ...member,
      ...(merged.properties || member.properties
        ? { properties: { ...merged.properties, ...member.properties } }
        : {}),
      ...(merged.required || member.required
        ? { required: [...new Set([...(merged.required ?? []), ...(member.required ?? [])])] }
        : {}),
    };
  }
  return merged;
}

function word(chars: readonly string[], minLength: number, maxLength: number): fc.Arbitrary<string> {
  return fc.string({ unit: fc.constantFrom(...chars), minLength, maxLength });
}

/** Plain, unsurprising e-mail addresses: the description only says "an e-mail". */
export function emailArbitrary(): fc.Arbitrary<string> {
  return fc
    .tuple(word(LOWER_CHARS, 1, 12), word(LOWER_CHARS, 1, 10))
    .map(([local, domain]) => `${local}@${domain}.example`);
}

/**
 * Built once per schema as written (its `allOf` not yet merged): fast-check reads a pattern's
 * regular expression, and tries its characters on known awkward strings, when the arbitrary is made.
 */
const strings = new WeakMap<JSONSchema7, fc.Arbitrary<string>>();

function stringArbitrary(written: JSONSchema7, flat: JSONSchema7): fc.Arbitrary<string> {
  let built = strings.get(written);
  if (!built) {
    built = newStringArbitrary(flat);
    strings.set(written, built);
  }
  return built;
}

function newStringArbitrary(schema: JSONSchema7): fc.Arbitrary<string> {
  const minLength = Math.max(1, schema.minLength ?? 1);
  const maxLength = Math.min(schema.maxLength ?? SHORT_LENGTH, Math.max(minLength, SHORT_LENGTH));
  if (schema.format === 'email') return emailArbitrary();
  if (schema.format === 'date-time') {
    return fc
      .date({
        min: new Date('2020-01-01T00:00:00Z'),
        max: new Date('2030-12-31T23:59:59Z'),
        noInvalidDate: true,
      })
      .map((date) => date.toISOString());
  }
  if (schema.pattern) {
    return fc
      .stringMatching(new RegExp(schema.pattern))
      .filter(
        (text) => text.length >= (schema.minLength ?? 0) && text.length <= (schema.maxLength ?? Infinity),
      );
  }
  // Across the lengths the schema allows, not a short middle: a provider's own cap below pacu's
  // decided one is a bound to learn (positive.accepted), and one past its own is a finding.
  const longest = schema.maxLength ?? maxLength;
  if (longest <= maxLength) return word(WORD_CHARS, minLength, maxLength);
  return fc.oneof(
    { arbitrary: word(WORD_CHARS, minLength, maxLength), weight: 3 },
    { arbitrary: word(WORD_CHARS, maxLength + 1, longest), weight: 1 },
  );
}

/**
 * Numbers are money here: positive whole cents, inside any bounds the schema sets, each order of
 * magnitude as likely as the next, so amounts span the type's range (0.01 to 1,000,000.00), not a
 * small middle: a record that writes 10,000 or more as a string is met. A provider's own cap is a
 * bound positive.accepted learns and reports.
 */
function numberArbitrary(schema: JSONSchema7): fc.Arbitrary<number> {
  const lowest =
    schema.exclusiveMinimum !== undefined
      ? Math.floor(Number(schema.exclusiveMinimum) * 100) + 1
      : Math.ceil((schema.minimum ?? 0.01) * 100);
  const highest =
    schema.exclusiveMaximum !== undefined
      ? Math.ceil(Number(schema.exclusiveMaximum) * 100) - 1
      : Math.floor((schema.maximum ?? DEFAULT_MAX_CENTS / 100) * 100);
  const min = Math.max(1, lowest);
  const max = Math.max(min, highest);
  const decades: fc.Arbitrary<number>[] = [];
  for (let low = min; low <= max; ) {
    const next = 10 ** (Math.floor(Math.log10(low)) + 1);
    const high = next >= max ? max : next - 1;
    decades.push(fc.integer({ min: low, max: high }));
    low = high + 1;
  }
  return fc.oneof(...decades).map((cents) => cents / 100);
}

/**
 * The one generic schema → arbitrary function behind every generated request. It produces values
 * a careful provider accepts: realistic strings, positive whole-cent amounts, every required
 * property and any optional ones. `overrides` replaces the arbitrary at a JSON pointer.
 *
 * @example
 * arbitraryFromSchema(spec.schema('AccountCreationRequest'), { '/user_id': fc.constant(userId) });
 */
export function arbitraryFromSchema(
  schema: JSONSchema7,
  overrides: ArbitraryOverrides = {},
  pointer = '',
): fc.Arbitrary<unknown> {
  const override = overrides[pointer];
  if (override) return override;
  const flat = mergeAllOf(schema);
  if (flat.const !== undefined) return fc.constant(flat.const);
  if (flat.enum) return fc.constantFrom(...flat.enum);
  const type = Array.isArray(flat.type) ? flat.type[0] : flat.type;
  switch (type ?? (flat.properties ? 'object' : 'string')) {
    case 'object': {
      const properties = flat.properties ?? {};
      const model = Object.fromEntries(
        Object.entries(properties).map(([key, child]) => [
          key,
          arbitraryFromSchema(child as JSONSchema7, overrides, `${pointer}/${key}`),
        ]),
      );
      const requiredKeys = (flat.required ?? []).filter((key) => key in properties);
      return fc.record(model, { requiredKeys });
    }
    case 'array':
      return fc.array(arbitraryFromSchema((flat.items ?? {}) as JSONSchema7, overrides, `${pointer}/0`), {
        maxLength: 3,
      });
    case 'boolean':
      return fc.boolean();
    case 'integer':
      return fc.integer({ min: flat.minimum ?? 0, max: flat.maximum ?? 1000 });
    case 'number':
      return numberArbitrary(flat);
    default:
      return stringArbitrary(schema, flat);
  }
}
