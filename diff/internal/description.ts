import { readFile } from 'node:fs/promises';
import path from 'node:path';
import $RefParser from '@apidevtools/json-schema-ref-parser';
import { parse as parseYaml } from 'yaml';
import { SpecError, yamlProblem } from '../../spec/index.ts';
import type { DescriptionInput } from '../glossary.ts';

export type Node = Record<string, unknown>;
export const asNode = (value: unknown): Node =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Node) : {};

/** A name as a JSON path step: `.paths`, or `["/users"]` for one that is not an identifier. */
export const key = (name: string): string =>
  /^[A-Za-z_$][\w$]*$/.test(name) ? `.${name}` : `[${JSON.stringify(name)}]`;

/** Whether a node carries pacu's `x-pacu-decision` mark. */
export const isDecision = (node: Node): boolean => typeof node['x-pacu-decision'] === 'string';

/** One version of a description: as written (for its decisions) and dereferenced (for everything else). */
export interface Description {
  readonly label: string;
  readonly raw: Node;
  readonly document: Node;
}

/** Parse YAML or JSON (JSON is YAML) into an OpenAPI 3 document; anything else is a {@link SpecError}. */
export function parseDescription(text: string, label: string): Node {
  let raw: unknown;
  try {
    raw = parseYaml(text, { maxAliasCount: -1 });
  } catch (cause) {
    throw new SpecError(`pacu: ${label} is not an OpenAPI description: ${yamlProblem(cause)}`, { cause });
  }
  const node = asNode(raw);
  if (typeof node.openapi !== 'string' || !node.openapi.startsWith('3.'))
    throw new SpecError(`pacu: ${label} is not an OpenAPI 3 description (no "openapi: 3.x" at its top)`);
  return node;
}

async function dereference(raw: Node, label: string, base: string): Promise<Node> {
  try {
    // The base path lets a description from git resolve its relative $refs beside the working file.
    return asNode(
      await $RefParser.dereference(base, structuredClone(raw) as never, { mutateInputSchema: true }),
    );
  } catch (cause) {
    throw new SpecError(`pacu: cannot resolve the $refs of ${label}: ${(cause as Error).message}`, { cause });
  }
}

// A parsed document diffed against many others (a test table, a CI matrix) is dereferenced once.
const dereferenced = new WeakMap<object, Promise<Node>>();

/** Read a description from a file, or take a parsed one, and dereference it. */
export async function loadDescription(input: DescriptionInput): Promise<Description> {
  if (typeof input !== 'string') {
    const raw = asNode(input.document);
    if (typeof raw.openapi !== 'string' || !raw.openapi.startsWith('3.'))
      throw new SpecError(`pacu: ${input.label} is not an OpenAPI 3 description`);
    let document = dereferenced.get(raw);
    if (!document) {
      document = dereference(raw, input.label, path.resolve('openapi.yaml'));
      dereferenced.set(raw, document);
    }
    return { label: input.label, raw, document: await document };
  }
  let text: string;
  try {
    text = await readFile(input, 'utf8');
  } catch (cause) {
    const reason = (cause as NodeJS.ErrnoException).code ?? (cause as Error).message;
    throw new SpecError(`pacu: cannot read the OpenAPI description ${input}: ${reason}`, { cause });
  }
  const raw = parseDescription(text, input);
  return { label: input, raw, document: await dereference(raw, input, path.resolve(input)) };
}
