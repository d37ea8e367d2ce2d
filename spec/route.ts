import { SpecError } from './errors.ts';
import type { OperationSpec, Spec } from './model.ts';

/** Where a request lands among the spec's operations. */
export type RouteResult =
  | {
      readonly kind: 'operation';
      readonly operation: OperationSpec;
      /** Path parameters, percent-decoded. */
      readonly params: Readonly<Record<string, string>>;
    }
  /** No operation has this path. */
  | { readonly kind: 'not-found' }
  /** The path is an operation's, the method is not: `allowed` lists the methods that are. */
  | { readonly kind: 'method-not-allowed'; readonly allowed: readonly string[] }
  /** A path parameter is not valid percent-encoding. */
  | { readonly kind: 'bad-parameter'; readonly name: string };

interface CompiledRoute {
  readonly operation: OperationSpec;
  readonly pattern: RegExp;
  readonly names: readonly string[];
}

interface CompiledRoutes {
  readonly routes: readonly CompiledRoute[];
  /** `METHOD /path` of each operation whose path has no parameter, routed once: most requests. */
  readonly fixed: ReadonlyMap<string, RouteResult>;
}

const compiled = new WeakMap<Spec, CompiledRoutes>();

function routesOf(spec: Spec): CompiledRoutes {
  let found = compiled.get(spec);
  if (!found) {
    const routes = spec.operations.map((operation) => {
      const names: string[] = [];
      const source = operation.path
        .split(/(\{[^}]+\})/)
        .map((part) => {
          const name = /^\{([^}]+)\}$/.exec(part)?.[1];
          if (name === undefined) return part.replace(/[.*+?^$()|[\]\\]/g, '\\$&');
          names.push(name);
          // A parameter is one non-empty segment: `/cards/virtual/` names no card.
          return '([^/]+)';
        })
        .join('');
      // No trailing slash: `/users/` is not a path of the description.
      return { operation, pattern: new RegExp(`^${source}$`), names };
    });
    const fixed = new Map<string, RouteResult>();
    for (const { operation, names } of routes) {
      if (names.length > 0) continue;
      const method = operation.method.toUpperCase();
      const result = matchRoute(routes, method, operation.path);
      if (result.kind === 'operation') Object.freeze(result.params);
      fixed.set(`${method} ${operation.path}`, Object.freeze(result));
    }
    found = { routes, fixed };
    compiled.set(spec, found);
  }
  return found;
}

function matchRoute(routes: readonly CompiledRoute[], method: string, bare: string): RouteResult {
  const onPath = routes.filter((route) => route.pattern.test(bare));
  if (onPath.length === 0) return { kind: 'not-found' };
  const route = onPath.find((candidate) => candidate.operation.method.toUpperCase() === method.toUpperCase());
  if (!route)
    return { kind: 'method-not-allowed', allowed: onPath.map((c) => c.operation.method.toUpperCase()) };
  const values = route.pattern.exec(bare)?.slice(1) ?? [];
  const params: Record<string, string> = {};
  for (const [index, name] of route.names.entries()) {
    try {
      params[name] = decodeURIComponent(values[index] ?? '');
    } catch {
      return { kind: 'bad-parameter', name };
    }
  }
  return { kind: 'operation', operation: route.operation, params };
}

/**
 * The one router of the API's paths, shared by the mock, the contracts and the suites. `path` is
 * relative to the base URL, as the interface description writes it (`/users`, not `/v3/users`);
 * a query string is ignored.
 *
 * @example
 * routeRequest(spec, 'GET', '/cards/virtual/card_1'); // { kind: 'operation', operation, params: { card_id: 'card_1' } }
 */
export function routeRequest(spec: Spec, method: string, path: string): RouteResult {
  const bare = path.includes('?') ? (path.split('?')[0] ?? path) : path;
  const { routes, fixed } = routesOf(spec);
  return fixed.get(`${method} ${bare}`) ?? matchRoute(routes, method, bare);
}

/**
 * An operation's path with its parameters filled in (percent-encoded), relative to the base URL.
 *
 * @example
 * pathFor(spec.operation('getCardTransaction'), { card_id: 'card_1', transaction_id: 'ctx 2' });
 * // '/cards/card_1/transactions/ctx%202'
 */
export function pathFor(
  operation: Pick<OperationSpec<string>, 'id' | 'path'>,
  params: Readonly<Record<string, string>> = {},
): string {
  return operation.path.replace(/\{([^}]+)\}/g, (_all, name: string) => {
    const value = params[name];
    if (value === undefined) throw new SpecError(`pathFor: ${operation.id} needs the path parameter ${name}`);
    return encodeURIComponent(value);
  });
}
