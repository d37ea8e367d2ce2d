// The one reader of request targets (RFC 9112 3.2) for the mock, the proxy and anything that
// routes a request: the path resolved (dot segments, `%2e`, backslashes, doubled slashes), the
// query kept as sent, and the forms that name no resource of this server refused.

/** A request target in origin-form, its path resolved. */
export interface RequestTarget {
  /** The resolved path, from `/`, without the query: `/v3/users`. */
  readonly path: string;
  /** The query with its `?`, as sent, or `''`. */
  readonly search: string;
}

/** Why a target is refused: a client error (400), one line. */
export interface TargetRefusal {
  readonly refused: string;
}

/** Anything a resolved path differs in: a dot segment, an encoded dot, a backslash, a doubled slash. */
const NEEDS_RESOLVING = /\/\.|\/\/|\\|%2e/i;
const ABSOLUTE_FORM = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//;
const DOT = /^(?:\.|%2e)$/i;
const DOT_DOT = /^(?:\.|%2e){2}$/i;

/**
 * `path` with its dot segments removed (RFC 3986 5.2.4; `%2e` counts as a dot, as WHATWG URL
 * parsers read it), backslashes read as slashes and runs of slashes as one: what the path names
 * for a server that resolves it, so no later reader (an upstream, a router) can resolve it to
 * somewhere else. A `..` above the root stays at the root.
 */
export function resolvePath(path: string): string {
  if (!NEEDS_RESOLVING.test(path)) return path;
  const out: string[] = [];
  const segments = path.replace(/\\/g, '/').split('/');
  for (let index = 1; index < segments.length; index++) {
    const segment = segments[index] as string;
    const last = index === segments.length - 1;
    if (DOT.test(segment)) {
      if (last) out.push('');
    } else if (DOT_DOT.test(segment)) {
      out.pop();
      if (last) out.push('');
    } else if (segment !== '' || last) out.push(segment);
  }
  return `/${out.join('/')}`;
}

/**
 * Read a request target. Origin-form (`/v3/users?page=2`) is resolved; absolute-form is taken as
 * its path when its authority is this server's own (the `host` header: RFC 9112 3.2.2 has servers
 * accept it) and refused when it names another host, for pacu is no forward proxy; asterisk-form
 * and authority-form name no resource of the interface and are refused.
 *
 * @example
 * readTarget('/v3/x/%2e%2e/users?page=1', 'h'); // { path: '/v3/users', search: '?page=1' }
 * readTarget('http://169.254.169.254/latest', 'h'); // { refused: '…' }
 */
export function readTarget(target: string, host: string | undefined): RequestTarget | TargetRefusal {
  if (target.startsWith('/')) {
    const queryAt = target.indexOf('?');
    const path = queryAt < 0 ? target : target.slice(0, queryAt);
    return { path: resolvePath(path), search: queryAt < 0 ? '' : target.slice(queryAt) };
  }
  if (target === '*') return { refused: 'the request target * names no resource of this interface' };
  if (ABSOLUTE_FORM.test(target) && URL.canParse(target)) {
    const url = new URL(target);
    if (host !== undefined && url.host.toLowerCase() === host.toLowerCase())
      return readTarget(`${url.pathname}${url.search}`, host);
    return {
      refused: `the request target names another host (${url.host}): this server is no forward proxy`,
    };
  }
  return { refused: 'the request target is not a path (origin-form, RFC 9112 3.2.1)' };
}

export const isRefusal = (target: RequestTarget | TargetRefusal): target is TargetRefusal =>
  'refused' in target;
