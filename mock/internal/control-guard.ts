import { timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';
import { hostname } from 'node:os';
import { controlErrorReply } from './envelope.ts';
import type { MockReply, MockRequest } from './http-types.ts';

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

/**
 * Control writes take JSON only: no HTML form can send it cross-site without a CORS preflight. A
 * DELETE with no body needs no type: no form sends DELETE, and a page's fetch of one is preflighted.
 */
export function writeTypeRefusal(request: MockRequest): MockReply | undefined {
  if (request.method === 'GET' || request.method === 'HEAD') return undefined;
  if (request.method === 'DELETE' && request.body.length === 0 && !request.headers['content-type'])
    return undefined;
  const type = (request.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  if (type === 'application/json') return undefined;
  return controlErrorReply(
    415,
    `control API writes take Content-Type: application/json, got ${request.headers['content-type'] ?? 'none'}`,
  );
}

export interface ControlGuard {
  check(request: MockRequest): MockReply | undefined;
}

/**
 * The control API hands out secrets and can wipe state, so it answers only to this machine's own
 * names (no DNS rebinding), never to a cross-site page (Origin, Sec-Fetch-Site, and writes only as
 * application/json, which no HTML form can send), and with the token when one is set.
 */
export function createControlGuard(boundHost: string, token: string | undefined): ControlGuard {
  const allowed = (host: string): boolean => {
    if (host === IN_PROCESS_HOST || isLoopbackHost(host)) return true;
    if (host === hostOf(boundHost)) return true;
    // On a wildcard bind, any of this machine's addresses or its name, never a foreign DNS name.
    if (isWildcardHost(boundHost))
      return isIP(host.replace(/^\[|\]$/g, '')) !== 0 || host === hostname().toLowerCase();
    return false;
  };
  return {
    check(request) {
      const host = request.headers.host;
      if (!host || !allowed(hostOf(host))) {
        return controlErrorReply(
          403,
          `the control API answers only to this machine's own host names, not ${host ?? 'none'}`,
        );
      }
      const origin = request.headers.origin;
      if (origin !== undefined) {
        let originHost: string | undefined;
        try {
          originHost = URL.canParse(origin) ? hostOf(new URL(origin).host) : undefined;
        } catch {}
        if (!originHost || !allowed(originHost)) {
          return controlErrorReply(403, `the control API refuses cross-site requests (Origin ${origin})`);
        }
      }
      if (request.headers['sec-fetch-site'] === 'cross-site') {
        return controlErrorReply(403, 'the control API refuses cross-site requests');
      }
      if (token !== undefined) {
        const given = request.headers[CONTROL_TOKEN_HEADER];
        if (!given || !sameSecret(given, token)) {
          return controlErrorReply(
            401,
            `the control API needs the control token in ${CONTROL_TOKEN_HEADER} (printed at start)`,
          );
        }
      }
      return undefined;
    },
  };
}
