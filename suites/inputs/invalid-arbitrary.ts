import fc from 'fast-check';
import { compileSchema, type JSONSchema7 } from '../../spec/index.ts';
import { mergeAllOf } from './schema-arbitrary.ts';

/** A valid body with exactly one thing made wrong, and what that thing is. */
export interface InvalidBody {
  readonly body: Record<string, unknown>;
  readonly mutation: string;
}

type Mutation = { readonly describe: string; readonly apply: (body: Record<string, unknown>) => void };

const OTHER_TYPE: Record<string, unknown> = {
  string: 42,
  number: 'twelve',
  integer: 'twelve',
  boolean: 'yes',
};

/** The mutations one property's schema allows: a value of another type, outside the enum, against the pattern… */
function propertyMutations(key: string, schema: JSONSchema7): Mutation[] {
  const flat = mergeAllOf(schema);
  const type = Array.isArray(flat.type) ? flat.type[0] : flat.type;
  const set = (describe: string, value: unknown): Mutation => ({
    describe: `${key} ${describe}`,
    apply: (body) => {
      body[key] = value;
    },
  });
  const found: Mutation[] = [];
  if (type && OTHER_TYPE[type] !== undefined) found.push(set(`of another type`, OTHER_TYPE[type]));
  if (type === 'object') found.push(set('of another type', 42));
  if (flat.enum) found.push(set('outside its enum', 'NOT_A_LISTED_VALUE'));
  if (flat.pattern) found.push(set('against its pattern', 'not-matching !'));
  if (flat.format === 'email') found.push(set('not an e-mail', 'not-an-email'));
  if (flat.maxLength !== undefined) found.push(set('too long', 'x'.repeat(flat.maxLength + 1)));
  if (flat.exclusiveMinimum !== undefined)
    found.push(set('not above its minimum', Number(flat.exclusiveMinimum)));
  if (flat.maximum !== undefined) found.push(set('above its maximum', flat.maximum * 2));
  if (flat['x-pacu-max-decimals' as keyof JSONSchema7] !== undefined)
    found.push(set('with three decimals', 1.005));
  return found;
}

/**
 * Invalid bodies derived from a schema (the profile's view of a request schema): a valid body with
 * one required property dropped or one property broken. Each candidate is checked against the
 * schema itself, so a case stays invalid however far fast-check shrinks it.
 */
export function invalidBodyArbitrary(
  schema: JSONSchema7,
  valid: fc.Arbitrary<unknown>,
): fc.Arbitrary<InvalidBody> | undefined {
  const flat = mergeAllOf(schema);
  const mutations: Mutation[] = [
    ...(flat.required ?? []).map((key) => ({
      describe: `${key} missing`,
      apply: (body: Record<string, unknown>) => {
        delete body[key];
      },
    })),
    ...Object.entries(flat.properties ?? {}).flatMap(([key, child]) =>
      propertyMutations(key, child as JSONSchema7),
    ),
  ];
  if (mutations.length === 0) return undefined;
  const check = compileSchema(schema);
  return fc
    .tuple(valid, fc.constantFrom(...mutations))
    .map(([body, mutation]) => {
      const copy = { ...(body as Record<string, unknown>) };
      mutation.apply(copy);
      return { body: copy, mutation: mutation.describe };
    })
    .filter(({ body }) => check(body).length > 0);
}
