import { CONTROL_PREFIX, type RequestFilter } from '../../http/index.ts';
import { PacuError } from '../../spec/index.ts';
import type { MockControl } from '../types.ts';
import { writeTypeRefusal } from './control-guard.ts';
import { controlErrorReply } from './envelope.ts';
import { MockHttpError, type MockReply, type MockRequest } from './http-types.ts';
import { readJsonBody } from './json-body.ts';
import type { Exchange } from './request-core.ts';

type Route = [method: string, pattern: RegExp, run: (params: string[], request: MockRequest) => unknown];

const body = (request: MockRequest): Record<string, unknown> => {
  const value = readJsonBody(request);
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new MockHttpError(400, 'the body must be a JSON object');
  return value as Record<string, unknown>;
};

/** `?operation=&clientId=&status=` of `GET /__pacu/requests`. */
function requestFilter(request: MockRequest): RequestFilter {
  const filter: RequestFilter = {};
  const operation = request.query.get('operation');
  const clientId = request.query.get('clientId');
  const status = request.query.get('status');
  if (operation) filter.operation = operation;
  if (clientId) filter.clientId = clientId;
  if (status) {
    if (!/^[1-5][0-9]{2}$|^0$/.test(status))
      throw new MockHttpError(400, 'status must be an HTTP status (or 0)');
    filter.status = Number(status);
  }
  return filter;
}

function routes(control: MockControl, storeStats: () => unknown): Route[] {
  return [
    // Not part of the control protocol: what the store is, and its round trips by what asked (the bench reads it).
    ['GET', /^\/store$/, () => storeStats()],
    ['GET', /^\/ids$/, () => control.ids()],
    [
      'POST',
      /^\/reset$/,
      async (_p, request) => {
        const clientId = request.query.get('clientId') ?? undefined;
        if (clientId === '') throw new MockHttpError(400, 'clientId must not be empty');
        await control.reset(clientId === undefined ? undefined : { clientId });
        return clientId === undefined ? { reset: true } : { reset: true, clientId };
      },
    ],
    ['GET', /^\/clock$/, () => control.clock()],
    ['POST', /^\/clock\/advance$/, (_p, request) => control.advanceClock(body(request).seconds as number)],
    ['GET', /^\/webhooks\/receivers$/, () => control.receivers()],
    [
      'POST',
      /^\/webhooks\/receivers$/,
      (_p, request) => control.addReceiver(body(request) as { url: string; secret: string }),
    ],
    [
      'DELETE',
      /^\/webhooks\/receivers\/([^/]+)$/,
      async ([id = '']) => {
        if (!(await control.removeReceiver(id))) throw new MockHttpError(404, `no receiver ${id}`);
        return { deleted: id };
      },
    ],
    ['GET', /^\/webhooks\/attempts$/, () => control.attempts()],
    ['GET', /^\/webhooks\/events$/, () => control.events()],
    [
      'POST',
      /^\/webhooks\/events\/([^/]+)\/redeliver$/,
      async ([id = '']) => {
        if (!(await control.redeliver(id)))
          throw new MockHttpError(404, `no event ${id} (the mock keeps the last 1000 events)`);
        return { redelivered: id };
      },
    ],
    ['GET', /^\/scenario$/, () => control.scenario()],
    [
      'PUT',
      /^\/scenario$/,
      async (_p, request) => {
        await control.setScenario(readJsonBody(request));
        return control.scenario();
      },
    ],
    ['GET', /^\/state$/, () => control.dumpState()],
    [
      'PUT',
      /^\/state$/,
      async (_p, request) => {
        await control.loadState(readJsonBody(request));
        return { loaded: true };
      },
    ],
    ['POST', /^\/clients$/, (_p, request) => control.addClient(body(request) as never)],
    ['POST', /^\/payments\/card$/, (_p, request) => control.createPushToCard(body(request) as never)],
    ['POST', /^\/faults$/, (_p, request) => control.addFault(body(request) as never)],
    ['GET', /^\/faults$/, () => control.faults()],
    [
      'DELETE',
      /^\/faults$/,
      (_p, request) => {
        const clientId = request.query.get('clientId') ?? undefined;
        return control.clearFaults(clientId === undefined ? undefined : { clientId });
      },
    ],
    ['GET', /^\/requests$/, (_p, request) => control.requests(requestFilter(request))],
    ['GET', /^\/requests\/unmatched$/, () => control.unmatchedRequests()],
    ['GET', /^\/coverage$/, () => control.coverage()],
  ];
}

/** Plain JSON in and out; errors are `{ error }` with 400, 404, 405 or 409. */
export function createControlHandler(
  control: MockControl,
  storeStats: () => unknown = () => ({}),
): (exchange: Exchange) => Promise<MockReply> {
  const table = routes(control, storeStats);
  return async ({ request }) => {
    const path = request.path.slice(CONTROL_PREFIX.length) || '/';
    try {
      const onPath = table.filter(([, pattern]) => pattern.test(path));
      if (onPath.length === 0) throw new MockHttpError(404, `no control endpoint ${request.path}`);
      const route = onPath.find(([method]) => method === request.method);
      if (!route)
        throw new MockHttpError(
          405,
          `${request.method} is not allowed on ${request.path}; use ${onPath.map(([m]) => m).join(', ')}`,
        );
      const refused = writeTypeRefusal(request);
      if (refused) return refused;
      const params = (route[1].exec(path)?.slice(1) ?? []).map((part) => decodeURIComponent(part));
      return { status: 200, body: await route[2](params, request) };
    } catch (error) {
      if (error instanceof MockHttpError)
        return controlErrorReply(error.status, error.message, error.headers);
      if (error instanceof PacuError || error instanceof URIError)
        return controlErrorReply(400, error.message);
      throw error;
    }
  };
}
