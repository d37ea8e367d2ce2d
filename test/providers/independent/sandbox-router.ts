import type { IncomingMessage, ServerResponse } from 'node:http';
import type { SandboxAuth } from './sandbox-auth.ts';
import { type Responder, readBody } from './sandbox-http.ts';
import type { SandboxOperations } from './sandbox-operations.ts';
import { parseJsonObject } from './sandbox-validation.ts';

type Route = {
  readonly method: 'GET' | 'POST';
  readonly path: readonly string[];
  readonly handle: (ctx: RouteContext) => void;
};

interface RouteContext {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  readonly body: string;
  readonly params: readonly string[];
  readonly query: URLSearchParams;
}

export interface RouterParts {
  readonly auth: SandboxAuth;
  readonly ops: SandboxOperations;
  readonly respond: Responder;
  /** Where the nine paths sit, e.g. `/api/v3`. */
  readonly basePath: string;
  /** The `transfer-without-bearer` mutant: usdTransfer without any Authorization header. */
  readonly transferWithoutBearer: boolean;
}

/** The request handler: unknown path 404, other method 405, body over the limit 413, then the route. */
export function createRouter(
  parts: RouterParts,
): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  const { auth, ops, respond, basePath } = parts;
  const json =
    (handler: (res: ServerResponse, body: Record<string, unknown>) => void) =>
    ({ res, body }: RouteContext): void => {
      const parsed = parseJsonObject(body);
      if (parsed === undefined) respond.fail(res, 400, 'The request body must be a JSON object');
      else handler(res, parsed);
    };
  const routes: Route[] = [
    { method: 'POST', path: ['auth', 'token'], handle: ({ req, res, body }) => auth.token(req, res, body) },
    {
      method: 'POST',
      path: ['payments', 'usd', 'direct'],
      handle: (ctx) =>
        auth.allow(ctx.req, ctx.res, 'us_account', parts.transferWithoutBearer) &&
        json((res, body) => ops.usdTransfer(res, body))(ctx),
    },
    {
      method: 'POST',
      path: ['payments', 'wallet'],
      handle: (ctx) =>
        auth.allow(ctx.req, ctx.res, 'us_account') && json((r, b) => ops.walletPayout(r, b))(ctx),
    },
    {
      method: 'POST',
      path: ['accounts'],
      handle: (ctx) =>
        auth.allow(ctx.req, ctx.res, 'us_account') && json((r, b) => ops.createAccount(r, b))(ctx),
    },
    {
      method: 'GET',
      path: ['cards', ':card_id', 'transactions', ':transaction_id'],
      handle: ({ req, res, params }) =>
        auth.allow(req, res, 'card') && ops.cardTransaction(res, params[0] ?? '', params[1] ?? ''),
    },
    {
      method: 'GET',
      path: ['payments', 'card', ':transaction_id'],
      handle: ({ req, res, params }) => auth.allow(req, res, 'card') && ops.pushToCard(res, params[0] ?? ''),
    },
    {
      method: 'GET',
      path: ['cards', 'virtual', ':card_id'],
      handle: ({ req, res, params }) => auth.allow(req, res, 'card') && ops.virtualCard(res, params[0] ?? ''),
    },
    {
      method: 'GET',
      path: ['users'],
      handle: ({ req, res, query }) => auth.allow(req, res, undefined) && ops.users(res, query),
    },
    {
      method: 'GET',
      path: ['p2p', 'status', ':user_id'],
      handle: ({ req, res, params }) =>
        auth.allow(req, res, 'us_account') && ops.p2pStatus(res, params[0] ?? ''),
    },
  ];

  return async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readBody(req);
    // Split by hand: `new URL('//host/x', base)` would read a path that starts with `//` as a host.
    const target = req.url ?? '/';
    const q = target.indexOf('?');
    const pathname = q < 0 ? target : target.slice(0, q);
    const query = new URLSearchParams(q < 0 ? '' : target.slice(q + 1));
    if (!pathname.startsWith(`${basePath}/`)) {
      respond.fail(res, 404, `No such resource: ${pathname}`);
      return;
    }
    const segments = pathname.slice(basePath.length + 1).split('/');
    const matches = routes
      .map((route) => ({ route, params: match(route.path, segments) }))
      .filter((m): m is { route: Route; params: string[] } => m.params !== undefined);
    if (matches.length === 0) {
      respond.fail(res, 404, `No such resource: ${pathname}`);
      return;
    }
    const found = matches.find((m) => m.route.method === req.method);
    if (found === undefined) {
      const allow = [...new Set(matches.map((m) => m.route.method))].join(', ');
      respond.fail(res, 405, `Method ${req.method} is not allowed here`, { allow });
      return;
    }
    if (body.kind === 'too-large') {
      respond.fail(res, 413, 'The request body is larger than 100 KiB');
      return;
    }
    if (found.params.some((p) => p === '\u0000')) {
      respond.fail(res, 400, 'A path parameter is not valid percent-encoding');
      return;
    }
    found.route.handle({ req, res, body: body.text, params: found.params, query });
  };
}

/** The decoded path parameters when `segments` fit `pattern` (`\u0000` marks one that does not decode). */
function match(pattern: readonly string[], segments: readonly string[]): string[] | undefined {
  if (pattern.length !== segments.length) return undefined;
  const params: string[] = [];
  for (const [i, part] of pattern.entries()) {
    const segment = segments[i] ?? '';
    if (part.startsWith(':')) {
      if (segment === '') return undefined;
      params.push(decode(segment));
    } else if (part !== segment) return undefined;
  }
  return params;
}

function decode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return '\u0000';
  }
}
