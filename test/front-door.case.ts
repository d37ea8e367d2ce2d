// One case list for the front door (http/front-door.ts), run against every surface behind it: the
// mock and the proxy (hono's router/common.case.test.ts: one suite, many implementations). The
// attacks on a front door (slow and stalled clients, pipelining, CONNECT and `*`, absolute-form
// targets and path escapes, header floods), over raw sockets where an HTTP client cannot express them.
import { expect } from 'vitest';
import { raw, statusLines } from './raw-http.ts';

/** A surface under test: where it listens, and what the provider behind it received. */
export interface Surface {
  readonly port: number;
  /** The Authorization value a read of /v3/users needs here. */
  readonly authorization: string;
  /** A transfer body the provider accepts, with this reference. */
  transfer(reference: string): string;
  /** Request targets the provider behind a proxy received; undefined for the mock (it is the provider). */
  received(): readonly string[] | undefined;
  /** Provider-side findings the surface filed so far (a proxy's), oldest first. */
  providerFindings(): Promise<readonly string[]>;
}

/** The time limits every surface runs with here, so the slow-client cases end in seconds. */
export const CASE_LIMITS = { headersTimeoutMs: 500, requestTimeoutMs: 1000 } as const;
/** Far above the limits and a loaded machine's answer time, far below "for ever". */
const PROMPTLY_MS = 6000;

export interface FrontDoorCase {
  readonly name: string;
  run(surface: Surface): Promise<void>;
}

const read = (surface: Surface, path: string, extra = ''): string =>
  `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${surface.port}\r\nAuthorization: ${surface.authorization}\r\n${extra}`;

const post = (surface: Surface, reference: string): string => {
  const body = surface.transfer(reference);
  return `POST /v3/payments/usd/direct HTTP/1.1\r\nHost: x\r\nAuthorization: ${surface.authorization}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
};

/** What a provider behind the surface may receive: paths under the base path, resolved. */
function expectUnderBase(surface: Surface): void {
  for (const target of surface.received() ?? []) {
    expect(target).toMatch(/^\/v3\//);
    expect(target).not.toMatch(/\/\.\.?(?:\/|$)|%2e|\\|\/\/|%2f|%5c/i);
  }
}

export const FRONT_DOOR_CASES: readonly FrontDoorCase[] = [
  {
    name: 'finding 1: a client that sends its headers slowly gets 408 and is closed',
    async run(surface) {
      const lines = [
        'GET /v3/users HTTP/1.1\r\n',
        'Host: x\r\n',
        'X-Slow: 1\r\n',
        'X-Slow: 2\r\n',
        'X-Slow: 3\r\n',
      ];
      const reply = await raw(surface.port, [...lines, ...lines.slice(2), ...lines.slice(2)], 250);
      expect(statusLines(reply.text)).toEqual(['HTTP/1.1 408']);
      expect(reply.closedAfterMs).toBeLessThan(PROMPTLY_MS);
    },
  },
  {
    name: 'finding 1: a body that stalls gets 408 and is closed, and nothing is forwarded',
    async run(surface) {
      const reply = await raw(surface.port, [
        'POST /v3/accounts HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"user',
      ]);
      expect(statusLines(reply.text)).toEqual(['HTTP/1.1 408']);
      expect(reply.text).toContain('"success":false');
      expect(reply.closedAfterMs).toBeLessThan(PROMPTLY_MS);
      expect(surface.received() ?? []).toEqual([]);
    },
  },
  {
    name: 'finding 1: a connection that sends only empty lines is closed',
    async run(surface) {
      const reply = await raw(surface.port, ['\r\n\r\n', '\r\n'], 100);
      expect(reply.closedAfterMs).toBeLessThan(PROMPTLY_MS);
    },
  },
  {
    name: 'finding 3: a valid request pipelined before a malformed one is executed and answered first',
    async run(surface) {
      const reply = await raw(surface.port, [
        `${post(surface, 'PIPELINED-1')}GARBAGE / HTTP/1.1\r\nHost x\r\n\r\n`,
      ]);
      expect(statusLines(reply.text)).toEqual(['HTTP/1.1 200', 'HTTP/1.1 400']);
      expect(reply.text).toContain('"transaction_id"');
      expect(reply.text).toContain('"success":false');
    },
  },
  {
    name: 'finding 3: pipelined requests are answered in order',
    async run(surface) {
      const reply = await raw(surface.port, [
        `${read(surface, '/v3/users', '\r\n')}${read(surface, '/v3/nothing', '\r\n')}${read(surface, '/v3/users', 'Connection: close\r\n\r\n')}`,
      ]);
      expect(statusLines(reply.text)).toEqual(['HTTP/1.1 200', 'HTTP/1.1 404', 'HTTP/1.1 200']);
    },
  },
  {
    name: 'finding 4: CONNECT gets 405 with the envelope',
    async run(surface) {
      const reply = await raw(surface.port, [
        'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n',
      ]);
      expect(statusLines(reply.text)).toEqual(['HTTP/1.1 405']);
      expect(reply.text).toContain('"success":false');
    },
  },
  {
    name: 'finding 4: OPTIONS * and GET * get a 400 envelope, a client error that reaches no provider',
    async run(surface) {
      for (const method of ['OPTIONS', 'GET']) {
        const reply = await raw(surface.port, [
          `${method} * HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
        ]);
        expect(statusLines(reply.text)).toEqual(['HTTP/1.1 400']);
        expect(reply.text).toContain('"success":false');
      }
      expect(surface.received() ?? []).toEqual([]);
      expect(await surface.providerFindings()).toEqual([]);
    },
  },
  {
    name: 'finding 5: an absolute-form target for another host is refused and reaches no provider',
    async run(surface) {
      const target = 'http://user:pw@169.254.169.254/latest/meta-data/';
      const reply = await raw(surface.port, [
        `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1:${surface.port}\r\nConnection: close\r\n\r\n`,
      ]);
      expect(statusLines(reply.text)).toEqual(['HTTP/1.1 400']);
      expect(reply.text).toContain('"success":false');
      // A Host that names the same host makes it this server's own path: outside the base, not found.
      const same = await raw(surface.port, [
        `GET ${target} HTTP/1.1\r\nHost: 169.254.169.254\r\nConnection: close\r\n\r\n`,
      ]);
      expect(statusLines(same.text)).toEqual(['HTTP/1.1 404']);
      expect(surface.received() ?? []).toEqual([]);
    },
  },
  {
    name: 'finding 5: paths with .., %2e%2e, //host or \\ never leave the base path',
    async run(surface) {
      const paths = [
        '/v3/../admin',
        '/v3/%2e%2e/%2E%2E/admin',
        '/v3/users/..%2f..%2fadmin',
        '//169.254.169.254/latest',
        '/v3//169.254.169.254/latest',
        '/v3\\..\\admin',
      ];
      for (const path of paths) {
        const reply = await raw(surface.port, [read(surface, path, 'Connection: close\r\n\r\n')]);
        const [status] = statusLines(reply.text);
        expect(status, path).toMatch(/^HTTP\/1\.1 4\d\d$/);
      }
      expectUnderBase(surface);
      expect(await surface.providerFindings()).toEqual([]);
    },
  },
  {
    name: 'finding 6: more header lines than the limit get 431; no other request is answered in its place',
    async run(surface) {
      const filler = Array.from({ length: 1001 }, (_, index) => `X-F${index}: 1\r\n`).join('');
      const reply = await raw(surface.port, [
        `GET /v3/users HTTP/1.1\r\nHost: x\r\n${filler}Authorization: ${surface.authorization}\r\nConnection: close\r\n\r\n`,
      ]);
      expect(statusLines(reply.text)).toEqual(['HTTP/1.1 431']);
      expect(reply.text).toContain('"success":false');
      expect(surface.received() ?? []).toEqual([]);
    },
  },
  {
    name: 'a body whose chunked framing breaks gets 400 at once and the connection closed',
    async run(surface) {
      const reply = await raw(surface.port, [
        `POST /v3/accounts HTTP/1.1\r\nHost: x\r\nAuthorization: ${surface.authorization}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n`,
      ]);
      expect(statusLines(reply.text)).toEqual(['HTTP/1.1 400']);
      expect(reply.text.toLowerCase()).toContain('connection: close');
      expect(reply.closedAfterMs).toBeLessThan(PROMPTLY_MS);
      expect(surface.received() ?? []).toEqual([]);
    },
  },
  {
    name: 'a client that half-closes after its request still reads the answer',
    async run(surface) {
      const reply = await raw(surface.port, [read(surface, '/v3/users', '\r\n')], 0, { halfClose: true });
      expect(statusLines(reply.text)).toEqual(['HTTP/1.1 200']);
      expect(reply.text).toContain('"total_pages"');
    },
  },
];
