import type { OperationId, Spec } from '../../spec/index.ts';
import { MockHttpError } from './http-types.ts';

export interface RouteMatch {
  operationId: OperationId;
  /** Path under the base path, e.g. `/cards/card_1/transactions/ctx_2`. */
  relativePath: string;
  params: Record<string, string>;
}

interface Route {
  method: string;
  pattern: RegExp;
  names: string[];
  operationId: OperationId;
}

export type Router = (method: string, path: string) => RouteMatch;

/** Routes for the spec's operations: unknown path → 404, known path with another method → 405. */
export function createRouter(spec: Spec): Router {
  const routes: Route[] = spec.operations.map((operation) => {
    const names: string[] = [];
    const source = operation.path
      .replace(/[.*+?^$()|[\]\\]/g, '\\$&')
      .replace(/\\?\{([^}]+)\\?\}/g, (_m, name: string) => {
        names.push(name);
        return '([^/]+)';
      });
    return {
      method: operation.method.toUpperCase(),
      pattern: new RegExp(`^${source}$`),
      names,
      operationId: operation.id,
    };
  });
  return (method, path) => {
    if (!path.startsWith(`${spec.basePath}/`)) throw new MockHttpError(404, `no operation at ${path}`);
    const relativePath = path.slice(spec.basePath.length);
    const onPath = routes.filter((route) => route.pattern.test(relativePath));
    if (onPath.length === 0) throw new MockHttpError(404, `no operation at ${path}`);
    const route = onPath.find((candidate) => candidate.method === method);
    if (!route) {
      const allowed = onPath.map((candidate) => candidate.method).join(', ');
      throw new MockHttpError(405, `${method} is not allowed on ${path}; use ${allowed}`, { allow: allowed });
    }
    const values = route.pattern.exec(relativePath)?.slice(1) ?? [];
    const params: Record<string, string> = {};
    for (const [index, name] of route.names.entries()) {
      try {
        params[name] = decodeURIComponent(values[index] ?? '');
      } catch {
        throw new MockHttpError(400, `Invalid request: path parameter ${name} is not valid percent-encoding`);
      }
    }
    return { operationId: route.operationId, relativePath, params };
  };
}
