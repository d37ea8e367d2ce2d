import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';

/**
 * What `npm run build` writes beside each compiled YAML description: the parsed document, the
 * same document with every `$ref` resolved (a graph: {@link encodeGraph}), and the hash of the
 * text they came from, so no start parses YAML or loads the `$ref` resolver (decisions 093, 182).
 */
export interface ParsedDescription {
  readonly sha256: string;
  readonly document: unknown;
  /** The dereferenced document as {@link encodeGraph} wrote it. */
  readonly dereferenced?: unknown;
  /** The build checked each of its schemas against JSON Schema's meta-schema (decision 202). */
  readonly schemasChecked?: boolean;
}

/** The description as read: as written, and dereferenced when the build's copy had it. */
export interface ReadDescription {
  readonly document: unknown;
  readonly dereferenced?: unknown;
  /** True when read from the build's copy, whose schemas the build checked. */
  readonly schemasChecked?: boolean;
}

/** Where the build puts the parsed form of `yamlFile`. */
export const parsedPathOf = (yamlFile: string): string => `${yamlFile}.parsed.json`;

export const sha256Of = (text: string): string => createHash('sha256').update(text).digest('hex');

/** The YAML parser's options; scripts/build.mjs parses with the same. */
const YAML_OPTIONS = { maxAliasCount: -1 } as const;

/**
 * `text` (the contents of `yamlFile`) as a document: from the build's parsed copy when its hash
 * says it was made from exactly this text, else by parsing the YAML (a description being edited, or
 * the sources run through tsx). Throws what the YAML parser throws.
 */
export async function parseDescription(
  yamlFile: string,
  text: string,
  digest: string = sha256Of(text),
): Promise<ReadDescription> {
  try {
    const parsed = JSON.parse(await readFile(parsedPathOf(yamlFile), 'utf8')) as ParsedDescription;
    if (parsed.sha256 === digest)
      return {
        document: parsed.document,
        ...(parsed.dereferenced === undefined ? {} : { dereferenced: decodeGraph(parsed.dereferenced) }),
        ...(parsed.schemasChecked === true ? { schemasChecked: true } : {}),
      };
  } catch {
    // No parsed copy (or an unreadable one): parse the YAML itself.
  }
  const { parse } = await import('yaml');
  return { document: parse(text, YAML_OPTIONS) };
}

/** The key of the stand-in for an object met before; no OpenAPI key starts with a NUL. */
const SEEN = '\u0000seen';

/**
 * A JSON value for an object graph whose objects may be shared or circular (a dereferenced
 * description: every `$ref` to one schema is that one object). Each object or array is numbered in
 * the order a depth-first walk first meets it; meeting it again writes `{"\u0000seen": n}`.
 */
export function encodeGraph(root: unknown): unknown {
  const numbers = new Map<object, number>();
  const encode = (value: unknown): unknown => {
    if (value === null || typeof value !== 'object') return value;
    const seen = numbers.get(value);
    if (seen !== undefined) return { [SEEN]: seen };
    numbers.set(value, numbers.size);
    if (Array.isArray(value)) return value.map(encode);
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, encode(inner)]));
  };
  return encode(root);
}

/** The graph {@link encodeGraph} wrote, shared and circular objects restored; `encoded` is reused. */
export function decodeGraph(encoded: unknown): unknown {
  const objects: object[] = [];
  const decode = (value: unknown): unknown => {
    if (value === null || typeof value !== 'object') return value;
    if (!Array.isArray(value) && SEEN in value) return objects[(value as Record<string, number>)[SEEN] ?? -1];
    objects.push(value);
    if (Array.isArray(value))
      for (let index = 0; index < value.length; index++) value[index] = decode(value[index]);
    else
      for (const key of Object.keys(value))
        (value as Record<string, unknown>)[key] = decode((value as Record<string, unknown>)[key]);
    return value;
  };
  return decode(encoded);
}
