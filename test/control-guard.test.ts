// The control API's guard (control-guard.case.ts) against the mock and against the proxy; the
// mock's own rules for writes are in mock-control-guard.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMock, startMock } from '../mock/index.ts';
import { type RunningProxy, startProxy } from '../proxy/index.ts';
import {
  ANSWERED,
  type ControlSurface,
  controlStatus,
  expectTokenGuard,
  REFUSED,
} from './control-guard.case.ts';

type Server = RunningMock | RunningProxy;
const surfaceOf = (server: Server, read: string): ControlSurface => ({
  port: Number(new URL(server.origin).port),
  read,
});

const SURFACES = {
  mock: {
    read: '/ids',
    start: (controlToken?: string) => startMock({ log: () => {}, ...(controlToken ? { controlToken } : {}) }),
  },
  proxy: {
    read: '/findings',
    // Nothing is forwarded: the control API is the proxy's own.
    start: (controlToken?: string) =>
      startProxy({
        upstream: 'http://127.0.0.1:9/v3',
        log: () => {},
        ...(controlToken ? { controlToken } : {}),
      }),
  },
} as const;

describe.each(['mock', 'proxy'] as const)('the control API guard of the %s', (kind) => {
  let server: Server;
  let surface: ControlSurface;
  beforeAll(async () => {
    server = await SURFACES[kind].start();
    surface = surfaceOf(server, SURFACES[kind].read);
  });
  afterAll(() => server?.close());

  it.each(REFUSED)('refuses %s', async (_name, headers, status) => {
    expect(await controlStatus(surface, headers)).toBe(`HTTP/1.1 ${status}`);
  });

  it.each(ANSWERED)('answers %s', async (_name, headers) => {
    expect(await controlStatus(surface, headers)).toBe('HTTP/1.1 200');
  });

  it('takes the token it is given (--control-token), also on loopback', async () => {
    const guarded = await SURFACES[kind].start('let-me-in-please');
    try {
      await expectTokenGuard(surfaceOf(guarded, SURFACES[kind].read), 'let-me-in-please');
    } finally {
      await guarded.close();
    }
  });
});
