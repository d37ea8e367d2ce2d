// The one file that sees Prism's fp-ts shapes: everything else gets plain arrays of messages.
// Prism's validator and its OpenAPI 3 reader, imported one by one: the package's index (and its
// getHttpOperationsFromSpec, through the Postman reader) loads @faker-js/faker and the example
// generator, about 2,500 modules and 0.9 s the mock never uses.
import { transformOas3Operations } from '@stoplight/http-spec/oas3/operation';
import { bundleTarget, decycle } from '@stoplight/json';
import $RefParser from '@stoplight/json-schema-ref-parser';
import { validateInput } from '@stoplight/prism-http/dist/validator/index.js';
import { type OperationId, pendingOnce } from '../spec/index.ts';

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

/**
 * Read the operations of `document` with Prism and return a checker with Prism's validation
 * semantics (body, query and path parameters; security is the mock's own, since tokens are state).
 */
export function loadPrismRequestCheck(
  document: Readonly<Record<string, unknown>>,
): Promise<PrismRequestCheck> {
  // Read once per description: a second mock of the same one (a test suite starts dozens) reuses
  // the operations, and with them the validators Prism compiled for their schemas.
  return pendingOnce(checks, document, () => newRequestCheck(document));
}

const checks = new WeakMap<Readonly<Record<string, unknown>>, Promise<PrismRequestCheck>>();

async function newRequestCheck(document: Readonly<Record<string, unknown>>): Promise<PrismRequestCheck> {
  const operations = await readOperations(document);
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
