// The one file that sees Prism's fp-ts shapes: everything else gets plain arrays of messages.
// Prism's validator and its OpenAPI 3 reader, imported one by one, not the package's index (which
// loads @faker-js/faker and the example generator the mock never uses); the reader only for a
// description the build did not read already (decision 199).
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { transformOas3Operations } from '@stoplight/http-spec/oas3/operation';
import { validateInput } from '@stoplight/prism-http/dist/validator/index.js';
import { decodeGraph, type OperationId, pendingOnce, type Spec } from '../spec/index.ts';

/** A request as Prism's validator needs it: path relative to the base path, headers lower-case. */
export interface PrismInput {
  method: string;
  /** Path under the base path, e.g. `/users`. */
  path: string;
  query: Record<string, string | string[]>;
  headers: Record<string, string>;
  /** Parsed JSON, or the raw text of a form body. */
  body: unknown;
}

/** Prism's verdict on one request: an empty list when the request is valid. */
export type PrismRequestCheck = (operationId: OperationId, input: PrismInput) => string[];

type PrismOperation = ReturnType<typeof transformOas3Operations>[number];

/**
 * What Prism's getHttpOperationsFromSpec does for an OpenAPI 3 file, without the Postman reader, on
 * the document spec/ already parsed: reading the file again cost a second YAML parse at every start.
 */
export async function readOperations(parsed: Readonly<Record<string, unknown>>): Promise<PrismOperation[]> {
  const [{ transformOas3Operations }, { bundleTarget, decycle }, { default: $RefParser }] = await Promise.all(
    [
      import('@stoplight/http-spec/oas3/operation'),
      import('@stoplight/json'),
      import('@stoplight/json-schema-ref-parser'),
    ],
  );
  const document = decycle(await new $RefParser().dereference(structuredClone(parsed) as never)) as Record<
    string,
    unknown
  >;
  return transformOas3Operations(document).map(
    (operation) =>
      bundleTarget({
        document: { ...document, __target__: operation },
        path: '#/__target__',
        cloneDocument: false,
      }) as PrismOperation,
  );
}

/** The packages whose versions decide what {@link readOperations} makes of a description. */
const READERS = ['@stoplight/http-spec', '@stoplight/json', '@stoplight/json-schema-ref-parser'] as const;

/**
 * The installed version of each reader package, as the build records them beside its reading; ''
 * where it cannot be told (a layout without a `node_modules/<name>` folder), which matches nothing.
 */
export function prismReaders(): Record<string, string> {
  const require = createRequire(import.meta.url);
  return Object.fromEntries(
    READERS.map((name) => {
      // Their exports maps hide package.json: found from the main file, up to the package's folder.
      let dir = path.dirname(require.resolve(name));
      while (!dir.endsWith(path.join('node_modules', name))) {
        if (path.dirname(dir) === dir) return [name, ''];
        dir = path.dirname(dir);
      }
      const manifest = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as {
        version: string;
      };
      return [name, manifest.version];
    }),
  );
}

/**
 * What the build writes beside a description (decision 199): Prism's reading of its operations (as
 * `encodeGraph` wrote them), keyed by the description text's SHA-256 and the reader versions.
 */
export interface PrismReading {
  readonly sha256: string;
  readonly readers: Readonly<Record<string, string>>;
  readonly operations: unknown;
}

/** Where the build puts Prism's reading of the description `yamlFile`. */
export const prismReadingPathOf = (yamlFile: string): string => `${yamlFile}.prism.json`;

/** The build's reading of this very text, when the readers installed now are the ones that made it. */
async function builtReading(spec: Pick<Spec, 'file' | 'digest'>): Promise<PrismOperation[] | undefined> {
  let reading: PrismReading;
  try {
    reading = JSON.parse(await readFile(prismReadingPathOf(spec.file), 'utf8')) as PrismReading;
  } catch {
    return undefined;
  }
  if (reading.sha256 !== spec.digest) return undefined;
  const installed = prismReaders();
  const same = READERS.every((name) => installed[name] !== '' && reading.readers[name] === installed[name]);
  return same ? (decodeGraph(reading.operations) as PrismOperation[]) : undefined;
}

/**
 * Read the operations of the description with Prism (or take the build's reading of it) and
 * return a checker with Prism's validation semantics (body, query and path parameters; security
 * is the mock's own, since tokens are state).
 */
export function loadPrismRequestCheck(
  spec: Pick<Spec, 'document' | 'file' | 'digest'>,
): Promise<PrismRequestCheck> {
  // Read once per description: a second mock of the same one (a test suite starts dozens) reuses
  // the operations, and with them the validators Prism compiled for their schemas.
  return pendingOnce(checks, spec.document, () => newRequestCheck(spec));
}

const checks = new WeakMap<Readonly<Record<string, unknown>>, Promise<PrismRequestCheck>>();

async function newRequestCheck(spec: Pick<Spec, 'document' | 'file' | 'digest'>): Promise<PrismRequestCheck> {
  const operations = (await builtReading(spec)) ?? (await readOperations(spec.document));
  const byId = new Map<string, PrismOperation>(
    operations.map((operation) => [operation.iid ?? '', operation]),
  );
  return (operationId, input) => {
    const resource = byId.get(operationId);
    if (!resource) throw new Error(`Prism did not load operation ${operationId}`);
    const result = validateInput({
      resource,
      element: {
        method: input.method.toLowerCase() as 'get',
        url: { path: input.path, query: input.query },
        headers: input.headers,
        body: input.body,
      },
    });
    return result._tag === 'Left' ? result.left.map((diagnostic) => diagnostic.message) : [];
  };
}
