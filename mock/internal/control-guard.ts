import { controlGuard } from '../../http/index.ts';
import { controlErrorReply } from './envelope.ts';
import type { MockReply, MockRequest } from './http-types.ts';

export { CONTROL_TOKEN_HEADER, IN_PROCESS_HOST, isLoopbackHost, isWildcardHost } from '../../http/index.ts';

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

/** The shared guard (http/control-guard.ts), answering with the control API's `{ error }`. */
export function createControlGuard(boundHost: string, token: string | undefined): ControlGuard {
  const check = controlGuard(boundHost, token);
  return {
    check(request) {
      const refused = check(request.headers);
      return refused ? controlErrorReply(refused.status, refused.message) : undefined;
    },
  };
}
