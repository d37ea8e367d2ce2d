import { type OperationSpec, routeRequest, type Spec } from '../spec/index.ts';
import type { SpecFinding } from './spec-finding.ts';

export type RouteMatch =
  | { readonly operation: OperationSpec; readonly pathParams: Readonly<Record<string, string>> }
  | { readonly finding: SpecFinding };

/**
 * The operation a pact request is for, by spec's one router. Pact paths are relative to the base
 * URL, as the interface description writes them (`/users`, not `/v3/users`), so a pact verifies
 * against any base URL.
 */
export function routeOperation(spec: Spec, method: string, rawPath: string): RouteMatch {
  const path = rawPath.split('?')[0] ?? rawPath;
  const found = routeRequest(spec, method, path);
  if (found.kind === 'operation') return { operation: found.operation, pathParams: found.params };
  if (found.kind === 'method-not-allowed')
    return {
      finding: {
        part: 'request',
        path: '$.method',
        message: `the spec has ${found.allowed.join(', ')} ${path}, not ${method}`,
      },
    };
  if (found.kind === 'bad-parameter')
    return {
      finding: {
        part: 'request',
        path: '$.path',
        message: `path parameter ${found.name} is not valid percent-encoding`,
      },
    };
  const hint =
    spec.basePath && path.startsWith(`${spec.basePath}/`)
      ? ` (pact paths are relative to the base URL: write ${path.slice(spec.basePath.length)})`
      : '';
  return {
    finding: {
      part: 'request',
      path: '$.path',
      message: `the spec has no operation at ${method} ${path}${hint}`,
    },
  };
}
