// One case list for the control API's guard (http/control-guard.ts), run against every surface that
// serves /__pacu: the mock and the proxy (hono's router/common.case.test.ts). Raw requests: fetch
// will not let a test set Host.
import { expect } from 'vitest';
import { raw, statusLines } from './raw-http.ts';

/** A surface's control API: where it listens and a read it answers. */
export interface ControlSurface {
  readonly port: number;
  /** A GET under /__pacu it answers with 200 (`/ids` on the mock, `/findings` on the proxy). */
  readonly read: string;
}

/** The status line of one control request with exactly these headers. */
export async function controlStatus(
  surface: ControlSurface,
  headers: Record<string, string>,
  method = 'GET',
): Promise<string> {
  const lines = Object.entries({ host: `127.0.0.1:${surface.port}`, ...headers, connection: 'close' })
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  const reply = await raw(surface.port, [`${method} /__pacu${surface.read} HTTP/1.1\r\n${lines}\r\n`]);
  return statusLines(reply.text)[0] ?? 'no answer';
}

/** Requests from elsewhere than this machine's own pages and tools, and the status each gets. */
export const REFUSED: ReadonlyArray<readonly [string, Record<string, string>, number]> = [
  ['a foreign Host (DNS rebinding)', { host: 'evil.example' }, 403],
  ['a foreign Host with a port', { host: 'evil.example:8080' }, 403],
  ['a cross-site Origin', { origin: 'http://evil.example' }, 403],
  ['Origin null', { origin: 'null' }, 403],
  ['Sec-Fetch-Site cross-site', { 'sec-fetch-site': 'cross-site' }, 403],
];

/** Requests from this machine, which pass. */
export const ANSWERED: ReadonlyArray<readonly [string, Record<string, string>]> = [
  ['127.0.0.1', {}],
  ['localhost', { host: 'localhost' }],
  ['a same-origin Origin', { origin: 'http://localhost:1234' }],
];

/** With a control token: refused without it or with another, answered with it. */
export async function expectTokenGuard(surface: ControlSurface, token: string): Promise<void> {
  expect(await controlStatus(surface, {})).toBe('HTTP/1.1 401');
  expect(await controlStatus(surface, { 'x-pacu-control-token': 'wrong' })).toBe('HTTP/1.1 401');
  expect(await controlStatus(surface, { 'x-pacu-control-token': token })).toBe('HTTP/1.1 200');
  // Behind a load balancer the replicas are reached by its name: the token, not the Host, guards.
  const named = { host: 'mock.staging.internal', 'x-pacu-control-token': token };
  expect(await controlStatus(surface, named)).toBe('HTTP/1.1 200');
  expect(await controlStatus(surface, { host: 'mock.staging.internal' })).toBe('HTTP/1.1 401');
  expect(await controlStatus(surface, { ...named, origin: 'http://evil.example' })).toBe('HTTP/1.1 403');
}
