import { type RouteResult, routeRequest, type Spec } from '../spec/index.ts';

/** Distinct paths whose route is remembered; all are forgotten when there are more. */
const REMEMBERED_PATHS = 1024;

/**
 * The spec's route of a method and path (relative to the base path, without the query), found once
 * for each: a client sends the same few paths over and over, and routing tries every operation's
 * pattern in turn.
 */
export function createRouteMemory(spec: Spec): (method: string, path: string) => RouteResult {
  const byMethod = new Map<string, Map<string, RouteResult>>();
  let kept = 0;
  return (method, path) => {
    let routed = byMethod.get(method)?.get(path);
    if (!routed) {
      if (kept >= REMEMBERED_PATHS) {
        byMethod.clear();
        kept = 0;
      }
      let byPath = byMethod.get(method);
      if (!byPath) {
        byPath = new Map();
        byMethod.set(method, byPath);
      }
      routed = routeRequest(spec, method, path);
      byPath.set(path, routed);
      kept += 1;
    }
    return routed;
  };
}
