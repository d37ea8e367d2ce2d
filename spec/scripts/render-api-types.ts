import { readFile } from 'node:fs/promises';
import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript';
import { parse as parseYaml } from 'yaml';
import { DEFAULT_SPEC_FILE } from '../load-spec.ts';

const HEADER = '// Generated from spec/openapi.yaml by `npm run generate:types`. Do not edit.\n\n';

const PRESENCE_ONLY_KEYS = new Set(['required', 'x-pacu-decision', 'x-pacu-source']);

/**
 * The types are pacu's own records (the strict view): a `required` list kept in an allOf member of
 * its own (a decision, or the sentence that states presence) is lifted onto its object, which
 * openapi-typescript reads; it does not merge allOf members into one object type.
 */
function liftPresence(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) liftPresence(item);
    return;
  }
  if (node === null || typeof node !== 'object') return;
  const object = node as Record<string, unknown>;
  const members = object.allOf as Record<string, unknown>[] | undefined;
  if (members && object.properties) {
    const presence = members.filter((m) => Object.keys(m).every((key) => PRESENCE_ONLY_KEYS.has(key)));
    if (presence.length > 0) {
      const lifted = presence.flatMap((m) => (m.required as string[] | undefined) ?? []);
      object.required = [...((object.required as string[] | undefined) ?? []), ...lifted];
      const rest = members.filter((m) => !presence.includes(m));
      if (rest.length > 0) object.allOf = rest;
      else delete object.allOf;
    }
  }
  for (const value of Object.values(object)) liftPresence(value);
}

/** The TypeScript text openapi-typescript makes of spec/openapi.yaml. */
export async function renderApiTypes(): Promise<string> {
  const document = parseYaml(await readFile(DEFAULT_SPEC_FILE, 'utf8'), { maxAliasCount: -1 }) as OpenAPI3;
  liftPresence(document);
  const ast = await openapiTS(document, { alphabetize: false, exportType: true });
  return HEADER + astToString(ast);
}
