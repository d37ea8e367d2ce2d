import { type JSONSchema7, readOnce, type Spec } from '../../spec/index.ts';

/** A word of the API's own: an enum value, a key written in capitals (a rail), a scope name. */
const WORD = /^[A-Za-z][A-Za-z0-9_]*$/;
const CAPITALS = /^[A-Z][A-Z0-9_]*$/;

/** Read once a spec: every invalid body of a run asks for them. */
const listsOf = new WeakMap<Spec<string>, readonly (readonly string[])[]>();

/** The lists of words the description gives: each enum, each set of capitalised keys, the scope names. */
export function wordListsOf(spec: Spec<string>): readonly (readonly string[])[] {
  return readOnce(listsOf, spec, () => readLists(spec));
}

function readLists(spec: Spec<string>): readonly (readonly string[])[] {
  const lists: string[][] = [[...spec.scopes]];
  const walk = (node: unknown): void => {
    if (!node || typeof node !== 'object') return;
    const schema = node as JSONSchema7;
    const words = (schema.enum ?? []).filter((value): value is string => typeof value === 'string');
    if (words.length > 0) lists.push(words.filter((word) => WORD.test(word)));
    const keys = Object.keys(schema.properties ?? {}).filter((key) => CAPITALS.test(key));
    if (keys.length > 1) lists.push(keys);
    for (const child of Object.values(node)) walk(child);
  };
  walk(spec.document);
  return lists.filter((list) => list.length > 0);
}

/**
 * Words a careless provider takes for one of `values` (an enum): those the description lists beside
 * them elsewhere (RTP beside ACH and WIRE in the rails), the values of the body's other enums
 * (CHECKING where ACH goes), then each value in another case or with white space around it.
 */
export function siblingsOf(
  values: readonly string[],
  lists: readonly (readonly string[])[],
  otherEnums: readonly (readonly string[])[],
): string[] {
  const related = lists.filter((list) => list.some((word) => values.includes(word))).flat();
  const found = [...related, ...otherEnums.flat()].filter((word) => !values.includes(word));
  const variants = values.flatMap((value) => [
    value === value.toLowerCase() ? value.toUpperCase() : value.toLowerCase(),
    `${value} `,
  ]);
  return [...new Set([...found, ...variants])].filter((word) => !values.includes(word));
}
