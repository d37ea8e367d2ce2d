// The control API lets no one in from elsewhere.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMock, startMock } from '../mock/index.ts';
import { call } from './mock-helpers.ts';
import { raw, statusLines } from './raw-http.ts';

let mock: RunningMock;
const port = (): number => Number(new URL(mock.origin).port);

/** One control request with exactly these headers (fetch would not let us set Host). */
async function control(
  method: string,
  path: string,
  headers: Record<string, string>,
  body = '',
): Promise<string> {
  const lines = Object.entries({ host: `127.0.0.1:${port()}`, ...headers, connection: 'close' })
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  const length = body ? `content-length: ${Buffer.byteLength(body)}\r\n` : '';
  const reply = await raw(port(), [`${method} /__pacu${path} HTTP/1.1\r\n${lines}${length}\r\n${body}`]);
  return statusLines(reply.text)[0] ?? 'no answer';
}

beforeAll(async () => {
  mock = await startMock({ log: () => {} });
});
afterAll(() => mock.close());

describe('control API guards on a loopback bind', () => {
  it('refuses the cross-site reset of the issue (DNS rebinding Host, foreign Origin, text/plain)', async () => {
    const before = (await call(`${mock.origin}/__pacu/ids`)).body;
    const status = await control(
      'POST',
      '/reset',
      { origin: 'http://evil.example', host: 'evil.example', 'content-type': 'text/plain' },
      'x',
    );
    expect(status).toBe('HTTP/1.1 403');
    expect((await call(`${mock.origin}/__pacu/ids`)).body).toEqual(before);
  });

  // The refusals every control API shares run against the mock and the proxy: control-guard.test.ts.
  it.each([
    ['a text/plain write', 'POST', '/reset', { 'content-type': 'text/plain' }, 'x', 415],
    ['a form write', 'POST', '/reset', { 'content-type': 'application/x-www-form-urlencoded' }, 'a=b', 415],
    ['a write without a content type', 'POST', '/reset', {}, '', 415],
  ])('refuses %s', async (_name, method, path, headers, body, status) => {
    expect(await control(method, path, headers as Record<string, string>, body)).toBe(`HTTP/1.1 ${status}`);
  });

  it('takes a DELETE without a body and without a content type: `curl -X DELETE …/__pacu/faults` (issue 19, finding 6)', async () => {
    expect(await control('DELETE', '/faults', {})).toBe('HTTP/1.1 200');
    // A DELETE that carries a body still says what it is.
    expect(await control('DELETE', '/faults', { 'content-type': 'text/plain' }, 'x')).toBe('HTTP/1.1 415');
  });

  it('takes JSON writes', async () => {
    expect(await control('POST', '/reset', { 'content-type': 'application/json' })).toBe('HTTP/1.1 200');
  });
});

describe('control API on a non-loopback bind', () => {
  it('requires a control token, generated and logged with a warning when none is given', async () => {
    const lines: string[] = [];
    const open = await startMock({ host: '0.0.0.0', log: (line) => lines.push(line) });
    try {
      const token = open.controlToken ?? '';
      expect(token.length).toBeGreaterThanOrEqual(20);
      expect(lines.join('\n')).toMatch(/warning: listening on 0\.0\.0\.0/);
      expect(lines.join('\n')).toContain(token);
      const url = `http://127.0.0.1:${new URL(open.origin).port}/__pacu/ids`;
      expect((await call(url)).status).toBe(401);
      expect((await call(url, { headers: { 'x-pacu-control-token': 'wrong' } })).status).toBe(401);
      const ids = await call(url, { headers: { 'x-pacu-control-token': token } });
      expect(ids.status).toBe(200);
      expect(ids.body.clientSecret).toBe('pacu-demo-secret');
    } finally {
      await open.close();
    }
  });
});
