import { type OperationId, type RouteResult, routeRequest, type Spec } from '../../spec/index.ts';
import { MockHttpError } from './http-types.ts';

export interface RouteMatch {
  operationId: OperationId;
  /** Path under the base path, e.g. `/cards/card_1/transactions/ctx_2`. */
  relativePath: string;
  params: Record<string, string>;
}

/**
 * Route a request; `found`, when given, carries the route: the first who routes a request keeps it
 * there, and later ones (the consumer layer, the handler, the judge on the end event) reuse it.
 */
export type Router = (method: string, path: string, found?: { route?: RouteResult }) => RouteMatch;

const NOT_FOUND: RouteResult = { kind: 'not-found' };

/**
 * spec's one router, as the mock answers it under `basePath` (the spec's, or a recorded sandbox's):
 * unknown path → 404, known path with another method → 405.
 */
export function createRouter(spec: Spec, basePath: string = spec.basePath): Router {
  const unknown = (path: string): never => {
    throw new MockHttpError(404, `no operation at ${path}`, undefined, 'unknown-path');
  };
  return (method, path, carrier) => {
    const relativePath = path.slice(basePath.length);
    const found =
      carrier?.route ??
      (path.startsWith(`${basePath}/`) ? routeRequest(spec, method, relativePath) : NOT_FOUND);
    if (carrier) carrier.route = found;
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
