import { type OperationId, routeRequest, type Spec } from '../../spec/index.ts';
import { MockHttpError } from './http-types.ts';

export interface RouteMatch {
  operationId: OperationId;
  /** Path under the base path, e.g. `/cards/card_1/transactions/ctx_2`. */
  relativePath: string;
  params: Record<string, string>;
}

export type Router = (method: string, path: string) => RouteMatch;

/**
 * spec's one router, as the mock answers it under `basePath` (the spec's, or a recorded sandbox's):
 * unknown path → 404, known path with another method → 405.
 */
export function createRouter(spec: Spec, basePath: string = spec.basePath): Router {
  const unknown = (path: string): never => {
    throw new MockHttpError(404, `no operation at ${path}`, undefined, 'unknown-path');
  };
  return (method, path) => {
    if (!path.startsWith(`${basePath}/`)) unknown(path);
    const relativePath = path.slice(basePath.length);
    const found = routeRequest(spec, method, relativePath);
    switch (found.kind) {
      case 'not-found':
        return unknown(path);
      case 'method-not-allowed': {
        const allowed = found.allowed.join(', ');
        throw new MockHttpError(
          405,
          `${method} is not allowed on ${path}; use ${allowed}`,
          { allow: allowed },
          'method',
        );
      }
      case 'bad-parameter':
        throw new MockHttpError(
          400,
          `Invalid request: path parameter ${found.name} is not valid percent-encoding`,
        );
      case 'operation':
        return { operationId: found.operation.id, relativePath, params: { ...found.params } };
    }
  };
}
