import { readFile } from 'node:fs/promises';
import { parse as parseYaml } from 'yaml';

// Read by path, not through load-spec.ts: that imports what this writes.
const SPEC_FILE = new URL('../openapi.yaml', import.meta.url);
const HEADER =
  '// Generated from spec/openapi.yaml by `npm run generate`. Do not edit: spec/model.ts re-exports these.\n';

interface Document {
  readonly paths: Record<string, Record<string, { operationId?: string }>>;
  readonly components: {
    readonly securitySchemes: Record<string, { flows?: { clientCredentials?: { scopes?: object } } }>;
  };
  readonly 'x-pacu-limits': { readonly maxBodyBytes: number; readonly maxJsonDepth: number };
}

const union = (names: readonly string[]): string => names.map((name) => `'${name}'`).join(' | ');
const list = (names: readonly string[]): string => `[${names.map((name) => `'${name}'`).join(', ')}]`;

/**
 * The facts of spec/openapi.yaml that code needs before (or without) loading it: the operation
 * ids in the order its paths list them, each operation's method and path, the bearer scopes and
 * the decided limits. loadSpec still refuses another description that disagrees with them.
 */
export async function renderSpecConstants(): Promise<string> {
  const document = parseYaml(await readFile(SPEC_FILE, 'utf8'), { maxAliasCount: -1 }) as Document;
  const routes = Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item).flatMap(([method, operation]) =>
      operation.operationId ? [{ id: operation.operationId, method, path }] : [],
    ),
  );
  const scopes = Object.keys(
    document.components.securitySchemes.bearerAuth?.flows?.clientCredentials?.scopes ?? {},
  );
  const limits = document['x-pacu-limits'];
  const ids = routes.map((route) => route.id);
  return [
    HEADER,
    '/** The operationIds of spec/openapi.yaml. */',
    `export type OperationId = ${union(ids)};`,
    '',
    '/** The operations in the order spec/openapi.yaml lists them (the order of the interface description). */',
    `export const OPERATION_IDS: readonly OperationId[] = ${list(ids)};`,
    '',
    '/** Method and path template of each operation. */',
    'export const OPERATION_ROUTES: Readonly<',
    "  Record<OperationId, { readonly method: 'get' | 'post'; readonly path: string }>",
    '> = {',
    ...routes.map((route) => `  ${route.id}: { method: '${route.method}', path: '${route.path}' },`),
    '};',
    '',
    '/** The scope names of bearerAuth. */',
    `export type Scope = ${union(scopes)};`,
    '',
    '/** The scope names of bearerAuth, in its order. */',
    `export const SCOPES: readonly Scope[] = ${list(scopes)};`,
    '',
    '/** x-pacu-limits. */',
    `export const DECIDED_LIMITS = { maxBodyBytes: ${limits.maxBodyBytes}, maxJsonDepth: ${limits.maxJsonDepth} } as const;`,
    '',
  ].join('\n');
}
