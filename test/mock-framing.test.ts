// A body whose framing is broken (a chunk size that is not hex) is answered at
// once with the 400 envelope and the connection closed, as nginx does; it never hangs the socket.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMock, startMock } from '../mock/index.ts';
import { OPERATION_ROUTES } from '../spec/index.ts';
import { tokenFor, transferBody } from './mock-helpers.ts';
import { raw, statusLines } from './raw-http.ts';

let mock: RunningMock;
let token: string;
const port = (): number => Number(new URL(mock.origin).port);
/** Far below the 12 s the hung sockets stayed open, far above a loaded machine's answer time. */
const PROMPTLY_MS = 3000;

beforeAll(async () => {
  mock = await startMock({ log: () => {} });
  token = await tokenFor(mock);
});
afterAll(() => mock.close());

const chunked = (method: string, path: string): string =>
  `${method} /v3${path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n`;

describe('a malformed chunked body', () => {
  const operations = Object.entries(OPERATION_ROUTES).map(([id, route]) => ({
    id,
    method: route.method.toUpperCase(),
    path: route.path.replace(/\{[^}]+\}/g, 'x1'),
  }));

  it.each(operations)('$id: 400 with the envelope, connection closed at once', async ({ method, path }) => {
    const reply = await raw(port(), [chunked(method, path)]);
    expect(statusLines(reply.text)).toEqual(['HTTP/1.1 400']);
    expect(reply.text).toContain('"success":false');
    expect(reply.text.toLowerCase()).toContain('connection: close');
    expect(reply.closedAfterMs).toBeLessThan(PROMPTLY_MS);
  });

  it('after a valid pipelined request: its answer first, then the 400, then the close', async () => {
    const body = JSON.stringify(transferBody(mock.seeded.merchantAccountId, { reference: 'FRAMING-1' }));
    const valid = `POST /v3/payments/usd/direct HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
    const reply = await raw(port(), [`${valid}${chunked('POST', '/accounts')}`]);
    expect(statusLines(reply.text)).toEqual(['HTTP/1.1 200', 'HTTP/1.1 400']);
    expect(reply.text).toContain('"transaction_id"');
    expect(reply.closedAfterMs).toBeLessThan(PROMPTLY_MS);
  });

  it('on the control API too', async () => {
    const reply = await raw(port(), [
      'POST /__pacu/faults HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n',
    ]);
    expect(statusLines(reply.text)).toEqual(['HTTP/1.1 400']);
    expect(reply.closedAfterMs).toBeLessThan(PROMPTLY_MS);
  });
});
