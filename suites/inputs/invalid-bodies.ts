import { compileSchema, type JSONSchema7 } from '../../spec/index.ts';
import { mergeAllOf } from './schema-arbitrary.ts';
import { siblingsOf } from './vocabulary.ts';

/** A valid body with exactly one thing made wrong, and what that thing is. */
export interface InvalidBody {
  readonly body: Record<string, unknown>;
  readonly mutation: string;
}

type Mutation = { readonly describe: string; readonly value: unknown };

const OTHER_TYPE: Record<string, unknown> = {
  string: 42,
  number: 'twelve',
  integer: 'twelve',
  boolean: 'yes',
  object: 42,
};

/** The field's valid value in the other type a careless parser accepts: "12.5" for 12.5, 12345 for "12345". */
function sameValueOtherType(value: unknown): Mutation[] {
  if (typeof value === 'number') return [{ describe: `${value} as a string`, value: String(value) }];
  if (typeof value === 'boolean') return [{ describe: `${value} as a string`, value: String(value) }];
  if (typeof value === 'string' && /^\d+(\.\d+)?$/.test(value))
    return [{ describe: 'its digits as a number', value: Number(value) }];
  return [];
}

/** What one property's schema refuses: another type, words of the API it does not take, its bounds crossed. */
function propertyMutations(
  schema: JSONSchema7,
  valid: unknown,
  otherEnums: readonly (readonly string[])[],
  lists: readonly (readonly string[])[],
): Mutation[] {
  const flat = mergeAllOf(schema);
  const type = Array.isArray(flat.type) ? flat.type[0] : flat.type;
  const found: Mutation[] = [];
  if (type && OTHER_TYPE[type] !== undefined)
    found.push({ describe: 'of another type', value: OTHER_TYPE[type] });
  found.push(...sameValueOtherType(valid));
  const words = (flat.enum ?? []).filter((value): value is string => typeof value === 'string');
  if (words.length > 0) {
    found.push({ describe: 'outside its enum', value: 'NOT_A_LISTED_VALUE' });
    for (const word of siblingsOf(words, lists, otherEnums))
      found.push({ describe: `${JSON.stringify(word)}, not one of ${words.join(', ')}`, value: word });
  }
  if (flat.pattern) found.push({ describe: 'against its pattern', value: 'not-matching !' });
  if (flat.format === 'email') found.push({ describe: 'not an e-mail', value: 'not-an-email' });
  if (flat.maxLength !== undefined)
    found.push({ describe: `${flat.maxLength + 1} characters long`, value: 'x'.repeat(flat.maxLength + 1) });
  if (flat.minLength !== undefined && flat.minLength > 0)
    found.push({ describe: `${flat.minLength - 1} characters long`, value: 'x'.repeat(flat.minLength - 1) });
  if (flat.exclusiveMinimum !== undefined) {
    const bound = Number(flat.exclusiveMinimum);
    found.push({ describe: `${bound}, not above its minimum`, value: bound });
    found.push({
      describe: `${bound - 0.01}, below its minimum`,
      value: Math.round((bound - 0.01) * 100) / 100,
    });
  }
  if (flat.minimum !== undefined)
    found.push({ describe: 'just below its minimum', value: Math.round((flat.minimum - 0.01) * 100) / 100 });
  if (flat.maximum !== undefined)
    found.push({ describe: 'just above its maximum', value: Math.round((flat.maximum + 0.01) * 100) / 100 });
  if (flat['x-pacu-max-decimals' as keyof JSONSchema7] !== undefined)
    found.push({ describe: 'with three decimals', value: 1.005 });
  return found;
}

/**
 * Every invalid body one valid `base` gives under a schema (the profile's view of a request schema):
 * each required property dropped, and each property broken every way its schema refuses, with the
 * words of the API (`lists`, see wordListsOf) a careless provider takes for an enum's. Enumerated,
 * not drawn: the list is small, and each is checked against the schema so only invalid ones remain.
 */
export function invalidBodies(
  schema: JSONSchema7,
  base: Record<string, unknown>,
  lists: readonly (readonly string[])[] = [],
): InvalidBody[] {
  const flat = mergeAllOf(schema);
  const properties = Object.entries(flat.properties ?? {}) as [string, JSONSchema7][];
  const enumsOf = (key: string): string[] =>
    ((mergeAllOf(flat.properties?.[key] as JSONSchema7).enum ?? []) as unknown[]).filter(
      (value): value is string => typeof value === 'string',
    );
  const bodies: InvalidBody[] = (flat.required ?? []).map((key) => {
    const { [key]: _dropped, ...rest } = base;
    return { body: rest, mutation: `${key} missing` };
  });
  for (const [key, child] of properties) {
    const otherEnums = properties
      .map(([other]) => other)
      .filter((other) => other !== key)
      .map(enumsOf);
    for (const { describe, value } of propertyMutations(child, base[key], otherEnums, lists))
      bodies.push({ body: { ...base, [key]: value }, mutation: `${key} ${describe}` });
  }
  const check = compileSchema(schema);
  const seen = new Set<string>();
  return bodies.filter(({ body }) => {
    const key = JSON.stringify(body);
    if (seen.has(key) || check(body).length === 0) return false;
    seen.add(key);
    return true;
  });
}
