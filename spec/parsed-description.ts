import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';

/**
 * What `npm run build` writes beside each compiled YAML description: the parsed document and the
 * hash of the text it came from. Parsing the 60 KB description with the yaml library took half a
 * second of every `pacu check` and `pacu mock` start; JSON.parse takes a millisecond.
 */
export interface ParsedDescription {
  readonly sha256: string;
  readonly document: unknown;
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
export async function parseDescription(yamlFile: string, text: string): Promise<unknown> {
  try {
    const parsed = JSON.parse(await readFile(parsedPathOf(yamlFile), 'utf8')) as ParsedDescription;
    if (parsed.sha256 === sha256Of(text)) return parsed.document;
  } catch {
    // No parsed copy (or an unreadable one): parse the YAML itself.
  }
  const { parse } = await import('yaml');
  return parse(text, YAML_OPTIONS);
}
