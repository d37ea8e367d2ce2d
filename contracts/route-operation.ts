import type { OperationSpec, Spec } from '../spec/index.ts';
import type { SpecFinding } from './spec-finding.ts';

export type RouteMatch =
  | { readonly operation: OperationSpec; readonly pathParams: Readonly<Record<string, string>> }
  | { readonly finding: SpecFinding };

function templateRegex(template: string): { regex: RegExp; names: string[] } {
  const names: string[] = [];
  const source = template
    .split(/(\{[^}]+\})/)
    .map((part) => {
      const name = /^\{([^}]+)\}$/.exec(part)?.[1];
      if (name === undefined) return part.replace(/[.*+?^$()|[\]\\]/g, '\\$&');
      names.push(name);
      return '([^/]*)';
    })
    .join('');
  return { regex: new RegExp(`^${source}/?$`), names };
}

/**
 * The operation a pact request is for. Pact paths are relative to the base URL, as the interface
 * description writes them (`/users`, not `/v3/users`), so a pact verifies against any base URL.
 */
export function routeOperation(spec: Spec, method: string, rawPath: string): RouteMatch {
  const path = rawPath.split('?')[0] ?? rawPath;
  const byPath = spec.operations.flatMap((operation) => {
    const { regex, names } = templateRegex(operation.path);
    const found = regex.exec(path);
    if (!found) return [];
    const pathParams = Object.fromEntries(
      names.map((name, index) => [name, decodeURIComponent(found[index + 1] ?? '')]),
    );
    return [{ operation, pathParams }];
  });
  const exact = byPath.find((candidate) => candidate.operation.method.toUpperCase() === method.toUpperCase());
  if (exact) return exact;
  if (byPath.length > 0) {
    const allowed = byPath.map((candidate) => candidate.operation.method.toUpperCase()).join(', ');
    return {
      finding: {
        part: 'request',
        path: '$.method',
        message: `the spec has ${allowed} ${path}, not ${method}`,
      },
    };
  }
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
