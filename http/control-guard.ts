import { timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';
import { hostname } from 'node:os';

// The control API's guards, shared by `pacu mock` and `pacu proxy` (both serve /__pacu): here, so
// neither reaches into the other's internals. Each server turns a refusal into its own envelope.

/** The header that carries the control token. */
export const CONTROL_TOKEN_HEADER = 'x-pacu-control-token';
/** The host of in-process requests (`app.request('/v3/users')`): not a name DNS can resolve. */
export const IN_PROCESS_HOST = 'pacu.mock';

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '::1', '[::1]']);

/** True for addresses only this machine can reach. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '');
  return LOOPBACK_NAMES.has(bare) || bare.startsWith('127.') || bare.endsWith('.localhost');
}

export const isWildcardHost = (host: string): boolean =>
  host === '0.0.0.0' || host === '::' || host === '[::]';

function hostOf(header: string): string {
  // `[::1]:4010` → `[::1]`; `example.com:80` → `example.com`
  const bracket = /^(\[[^\]]*\])(?::\d+)?$/.exec(header);
  if (bracket) return (bracket[1] ?? '').toLowerCase();
  return header.replace(/:\d+$/, '').toLowerCase();
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Why a control request is refused: the status and the one-line message of the answer. */
export interface ControlRefusal {
  readonly status: 401 | 403;
  readonly message: string;
}

/**
 * Whether a control request may pass: undefined when it may, else why not. Each server builds one
 * for the host it listens on and the token it was given.
 */
export type ControlGuardCheck = (
  headers: Readonly<Record<string, string | undefined>>,
) => ControlRefusal | undefined;

/**
 * The control API hands out secrets and can wipe state, so it answers never to a cross-site page
 * (Origin, Sec-Fetch-Site; writes only as application/json, checked by each server), and either to
 * this machine's own names (no DNS rebinding) or, when a token is set, to any name with the token:
 * a rebinding page cannot know it, and replicas behind a load balancer are reached by its name.
 */
export function controlGuard(boundHost: string, token: string | undefined): ControlGuardCheck {
  const allowed = (host: string): boolean => {
    if (host === IN_PROCESS_HOST || isLoopbackHost(host)) return true;
    if (host === hostOf(boundHost)) return true;
    // On a wildcard bind, any of this machine's addresses or its name, never a foreign DNS name.
    if (isWildcardHost(boundHost))
      return isIP(host.replace(/^\[|\]$/g, '')) !== 0 || host === hostname().toLowerCase();
    return false;
  };
  return (headers) => {
    const host = headers.host;
    if (token === undefined && (!host || !allowed(hostOf(host))))
      return {
        status: 403,
        message: `the control API answers only to this machine's own host names, not ${host ?? 'none'}`,
      };
    const origin = headers.origin;
    if (origin !== undefined) {
      let originHost: string | undefined;
      try {
        originHost = URL.canParse(origin) ? hostOf(new URL(origin).host) : undefined;
      } catch {}
      if (!originHost || !allowed(originHost))
        return { status: 403, message: `the control API refuses cross-site requests (Origin ${origin})` };
    }
    if (headers['sec-fetch-site'] === 'cross-site')
      return { status: 403, message: 'the control API refuses cross-site requests' };
    if (token !== undefined) {
      const given = headers[CONTROL_TOKEN_HEADER];
      if (!given || !sameSecret(given, token))
        return {
          status: 401,
          message: `the control API needs the control token in ${CONTROL_TOKEN_HEADER} (printed at start)`,
        };
    }
    return undefined;
  };
}
