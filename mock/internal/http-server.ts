import type { ServerResponse } from 'node:http';
import {
  type EdgeRequest,
  type FrontDoorLimits,
  isControlPath,
  type ListeningServer,
  openFrontDoor,
} from '../../http/index.ts';
import { errorFor, replyText } from './envelope.ts';
import type { MockReply, MockRequest } from './http-types.ts';
import { BODY_LIMIT_BYTES, CONTROL_BODY_LIMIT_BYTES } from './limits.ts';

function send(response: ServerResponse, reply: MockReply): void {
  if (reply.transport?.kind === 'drop') {
    // A fault: the client sees its connection reset with no answer at all.
    response.socket?.resetAndDestroy();
    return;
  }
  const text = replyText(reply);
  response.writeHead(reply.status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    ...reply.headers,
  });
  response.end(text);
}

function toMockRequest(request: EdgeRequest): MockRequest {
  return {
    method: request.method,
    path: request.path,
    query: new URLSearchParams(request.search),
    headers: request.headers as Record<string, string | undefined>,
    body: request.body,
    headerLines: request.rawHeaders.length / 2,
    rawHeaders: request.rawHeaders,
    search: request.search,
  };
}

/**
 * Serve `handle` behind the front door (http/front-door.ts), which holds the transport's limits
 * and answers its refusals with the mock's envelopes; the control API takes larger bodies.
 */
export function listen(
  handle: (request: MockRequest) => Promise<MockReply>,
  host: string,
  port: number,
  limits: FrontDoorLimits,
  log: (line: string) => void,
): Promise<ListeningServer> {
  return openFrontDoor({
    host,
    port,
    limits,
    bodyLimit: (path) => (isControlPath(path) ? CONTROL_BODY_LIMIT_BYTES : BODY_LIMIT_BYTES),
    errorBody: (path, status, message) => replyText(errorFor(path, status, message)),
    handle: (request, response) => {
      void handle(toMockRequest(request)).then((reply) => send(response, reply));
    },
    log,
  });
}
