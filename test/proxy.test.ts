// pacu proxy over real HTTP: the pacu mock as the correct upstream, small broken upstreams, a client
// on undici, TLS to a self-signed upstream, and bad inputs on both sides.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import {
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { createServer as createHttps } from 'node:https';
import { createRequire } from 'node:module';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { Ajv } from 'ajv';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RequestEnd } from '../http/index.ts';
import { type RunningMock, startMock } from '../mock/index.ts';
import { type RunningProxy, startProxy } from '../proxy/index.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'pacu-proxy-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SECRET = 'proxy-test-secret-0123';
const CLIENT = 'proxy-test-client';
const basic = `Basic ${Buffer.from(`${CLIENT}:${SECRET}`).toString('base64')}`;

async function send(
  url: string,
  method: 'GET' | 'POST',
  headers: Record<string, string> = {},
  body?: string,
): Promise<{ status: number; headers: Record<string, unknown>; text: string }> {
  const answer = await request(url, { method, headers, ...(body !== undefined ? { body } : {}) });
  return { status: answer.statusCode, headers: answer.headers, text: await answer.body.text() };
}

async function tokenVia(base: string, scope = 'card,us_account'): Promise<string> {
  const answer = await send(
    `${base}/auth/token`,
    'POST',
    { authorization: basic, 'content-type': 'application/x-www-form-urlencoded' },
    `grant_type=client_credentials&scope=${scope}`,
  );
  return (JSON.parse(answer.text) as { data: { access_token: string } }).data.access_token;
}

/** A one-handler HTTP upstream on a free loopback port; `url` ends in /v3. */
async function upstream(
  handle: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<{ url: string; server: Server; hits: () => number }> {
  let hits = 0;
  const server = createServer((req, res) => {
    hits += 1;
    handle(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}/v3`, server, hits: () => hits };
}

/** The proxy judges an exchange right after its answer left: wait until `n` are done. */
async function settled(proxy: RunningProxy, n: number): Promise<void> {
  for (let tries = 0; proxy.counts().exchanges < n && tries < 100; tries++)
    await new Promise((resolve) => setTimeout(resolve, 10));
  // …and its recording written.
  await new Promise((resolve) => setTimeout(resolve, 30));
}

const closeServer = (server: Server) =>
  new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });

describe('pacu proxy in front of the pacu mock', () => {
  let mock: RunningMock;
  let proxy: RunningProxy;
  const har = path.join(dir, 'traffic.har');
  const events: string[] = [];
  const ends: RequestEnd[] = [];

  beforeAll(async () => {
    mock = await startMock({
      clients: [{ clientId: CLIENT, clientSecret: SECRET, scopes: ['card', 'us_account'] }],
      log: () => {},
    });
    proxy = await startProxy({
      upstream: mock.url,
      record: har,
      clientId: CLIENT,
      clientSecret: SECRET,
      observers: [
        {
          start: (request) => events.push(`start ${request.method} ${request.path}`),
          match: (_request, operationId) => events.push(`match ${operationId}`),
          end: (event) => ends.push(event),
        },
      ],
    });
  });
  afterAll(async () => {
    await proxy?.close();
    await mock?.close();
  });

  it('forwards every request and returns the answer as it came, judges it and records it', async () => {
    const token = await tokenVia(proxy.url);
    const auth = { authorization: `Bearer ${token}` };
    const direct = await send(`${mock.url}/users`, 'GET', auth);
    const through = await send(`${proxy.url}/users`, 'GET', auth);
    expect(through.status).toBe(200);
    expect(through.text).toBe(direct.text);
    expect(through.headers['content-type']).toBe(direct.headers['content-type']);
    const transfer = JSON.stringify({
      account_id: mock.seeded.merchantAccountId,
      account_number: '123456789',
      account_type: 'CHECKING',
      amount: 10.5,
      routing_number: '021000021',
      transfer_type: 'ACH',
      reference: 'proxy-ref-1',
      recipient_email: 'ann@example.com',
      recipient_name: 'Ann',
    });
    const made = await send(
      `${proxy.url}/payments/usd/direct`,
      'POST',
      { ...auth, 'content-type': 'application/json' },
      transfer,
    );
    expect(made.status).toBe(200);
    await settled(proxy, 3);
    // The correct upstream breaks nothing under the documented view.
    expect(proxy.findings()).toEqual([]);
    expect(proxy.counts()).toEqual({ exchanges: 3, recorded: 3, notRecorded: 0 });
    expect(events).toContain('match listUsers');
    expect(ends.map((end) => [end.operationId, end.status])).toContainEqual(['usdTransfer', 200]);
  });

  it('writes a HAR 1.2 file (0600) that the HAR JSON schema accepts, with no credential in it', () => {
    const text = readFileSync(har, 'utf8');
    expect(statSync(har).mode & 0o777).toBe(0o600);
    const ajv = new Ajv({ strict: false, validateSchema: false, allErrors: true });
    // har-schema: the HAR 1.2 JSON schema, one file per object, wired by $id.
    for (const schema of harSchemas()) ajv.addSchema(schema);
    const valid = ajv.getSchema('har.json#');
    const parsed = JSON.parse(text);
    expect(valid?.(parsed), JSON.stringify(valid?.errors)).toBe(true);
    expect(parsed.log.entries).toHaveLength(3);
    expect(parsed.log.entries[0].request.url).toBe(`${mock.url}/auth/token`);
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain(basic.slice(6));
    for (const entry of parsed.log.entries) {
      const token = /"access_token":"([^"]+)"/.exec(entry.response.content.text ?? '')?.[1];
      if (token) expect(token).toBe('[redacted]');
    }
    expect(text).toContain('Bearer $PACU_TOKEN');
    // Nothing else changed: the transfer's body is recorded as sent.
    expect(text).toContain('proxy-ref-1');
  });

  it('serves GET /__pacu/exchanges and /__pacu/findings, read-only (the guard: control-guard.test.ts)', async () => {
    const exchanges = await send(`${proxy.origin}/__pacu/exchanges`, 'GET');
    expect(exchanges.status).toBe(200);
    expect(JSON.parse(exchanges.text)).toHaveLength(3);
    expect(exchanges.text).not.toContain(SECRET);
    expect((await send(`${proxy.origin}/__pacu/findings`, 'GET')).text).toBe('[]');
    expect(
      (await send(`${proxy.origin}/__pacu/findings`, 'POST', { 'content-type': 'application/json' }, '{}'))
        .status,
    ).toBe(405);
  });

  it('forwards a body sent after Expect: 100-continue (as curl sends bodies over 1 KiB)', async () => {
    const body = JSON.stringify({ user_id: 'usr_1', hold_balance: true, note: 'x'.repeat(2000) });
    const status = await new Promise<number>((resolve, reject) => {
      const sent = httpRequest(`${proxy.url}/accounts`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          expect: '100-continue',
        },
      });
      sent.on('continue', () => sent.end(body));
      sent.on('response', (answer) => {
        answer.resume();
        resolve(answer.statusCode ?? 0);
      });
      sent.on('error', reject);
    });
    // The mock refuses the missing token: what matters is that the upstream answered, not the proxy.
    expect(status).toBe(401);
  });

  it('refuses an oversize body with 413 and the error envelope, sending nothing upstream', async () => {
    const big = 'x'.repeat(1024 * 1024 + 1);
    const answer = await send(
      `${proxy.url}/payments/usd/direct`,
      'POST',
      { 'content-type': 'application/json' },
      big,
    );
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.text)).toMatchObject({ success: false });
  });
});

function harSchemas(): object[] {
  const folder = path.dirname(createRequire(import.meta.url).resolve('har-schema/lib/har.json'));
  return readdirSync(folder)
    .filter((name) => name.endsWith('.json'))
    .map((name) => JSON.parse(readFileSync(path.join(folder, name), 'utf8')) as object);
}

describe('pacu proxy in front of broken upstreams', () => {
  it('forwards a non-JSON answer unchanged and reports it as a provider finding', async () => {
    const html = '<html><body>maintenance</body></html>';
    const up = await upstream((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html', 'x-upstream': 'yes' });
      res.end(html);
    });
    const seen: string[] = [];
    const proxy = await startProxy({
      upstream: up.url,
      onFinding: (finding) => seen.push(`${finding.side} ${finding.rule}`),
    });
    try {
      const answer = await send(`${proxy.url}/users`, 'GET', { authorization: 'Bearer abc-token' });
      expect(answer.status).toBe(200);
      expect(answer.text).toBe(html);
      expect(answer.headers['x-upstream']).toBe('yes');
      await settled(proxy, 1);
      expect(seen).toEqual(['provider envelope.content-type']);
    } finally {
      await proxy.close();
      await closeServer(up.server);
    }
  });

  it('forwards a gzip answer as it came, and judges and records it decoded', async () => {
    const json = JSON.stringify({
      success: true,
      message: 'ok',
      data: { items: [], page: 1, total_count: 0, total_pages: 0 },
    });
    const zipped = gzipSync(json);
    const up = await upstream((_req, res) => {
      res.writeHead(200, {
        'content-type': 'application/json',
        'content-encoding': 'gzip',
        'content-length': zipped.length,
      });
      res.end(zipped);
    });
    const har = path.join(dir, 'gzip.har');
    const proxy = await startProxy({ upstream: up.url, record: har });
    try {
      const answer = await request(`${proxy.url}/users`, {
        headers: { authorization: 'Bearer z-1', 'accept-encoding': 'gzip' },
      });
      expect(answer.headers['content-encoding']).toBe('gzip');
      expect(Buffer.from(await answer.body.arrayBuffer()).equals(zipped)).toBe(true);
      await settled(proxy, 1);
      expect(proxy.findings()).toEqual([]);
      expect(JSON.parse(readFileSync(har, 'utf8')).log.entries[0].response.content.text).toBe(json);
    } finally {
      await proxy.close();
      await closeServer(up.server);
    }
  });

  it('sees an upstream that answers a replayed reference with a new transaction', async () => {
    let n = 0;
    const up = await upstream((req, res) => {
      let body = '';
      req.on('data', (chunk) => {
        body += chunk;
      });
      req.on('end', () => {
        const sent = JSON.parse(body) as Record<string, unknown>;
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            success: true,
            message: 'ok',
            data: {
              ...sent,
              transaction_date: '2026-01-01T00:00:00Z',
              transaction_id: `txn_${++n}`,
              transaction_status: 'processing',
            },
          }),
        );
      });
    });
    const proxy = await startProxy({ upstream: up.url });
    try {
      const body = JSON.stringify({
        account_id: 'acc_1',
        account_number: '123456789',
        account_type: 'CHECKING',
        amount: 10,
        routing_number: '021000021',
        transfer_type: 'ACH',
        reference: 'same-ref',
        recipient_email: 'ann@example.com',
        recipient_name: 'Ann',
        description: 'rent',
      });
      const headers = { 'content-type': 'application/json', authorization: 'Bearer t-123' };
      await send(`${proxy.url}/payments/usd/direct`, 'POST', headers, body);
      await send(`${proxy.url}/payments/usd/direct`, 'POST', headers, body);
      await settled(proxy, 2);
      expect(proxy.findings().map((f) => `${f.side} ${f.rule}`)).toEqual([
        'provider idempotency.same-reference-replay',
      ]);
    } finally {
      await proxy.close();
      await closeServer(up.server);
    }
  });

  it('answers 502 with the envelope naming the upstream when it cannot be reached, or resets', async () => {
    const gone = await upstream(() => {});
    const goneUrl = gone.url;
    await closeServer(gone.server);
    const proxy = await startProxy({ upstream: goneUrl });
    const reset = await upstream((req) => req.socket.destroy());
    const resetProxy = await startProxy({ upstream: reset.url });
    try {
      const answer = await send(`${proxy.url}/users`, 'GET');
      expect(answer.status).toBe(502);
      const body = JSON.parse(answer.text) as { success: boolean; message: string };
      expect(body.success).toBe(false);
      expect(body.message).toContain(goneUrl);
      const afterReset = await send(`${resetProxy.url}/users`, 'GET');
      expect(afterReset.status).toBe(502);
      expect(JSON.parse(afterReset.text).message).toContain(reset.url);
    } finally {
      await proxy.close();
      await resetProxy.close();
      await closeServer(reset.server);
    }
  });

  it('answers 504 with the envelope when the upstream hangs past --upstream-timeout', async () => {
    const up = await upstream(() => {});
    const proxy = await startProxy({ upstream: up.url, upstreamTimeoutMs: 300 });
    try {
      const answer = await send(`${proxy.url}/users`, 'GET');
      expect(answer.status).toBe(504);
      expect(JSON.parse(answer.text)).toMatchObject({ success: false });
      expect(JSON.parse(answer.text).message).toContain('300 ms');
    } finally {
      await proxy.close();
      await closeServer(up.server);
    }
  });

  it('sends nothing upstream for a client that disconnects mid-body, and records nothing', async () => {
    const up = await upstream((_req, res) => res.end('{}'));
    const har = path.join(dir, 'disconnect.har');
    const proxy = await startProxy({ upstream: up.url, record: har });
    try {
      const port = Number(new URL(proxy.origin).port);
      await new Promise<void>((resolve) => {
        const socket = connect(port, '127.0.0.1', () => {
          socket.write(
            'POST /v3/accounts HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{"user_id":',
          );
          setTimeout(() => {
            socket.destroy();
            resolve();
          }, 100);
        });
      });
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(up.hits()).toBe(0);
      // The proxy serves on: the next exchange completes and is recorded.
      expect((await send(`${proxy.url}/users`, 'GET')).status).toBe(200);
      await settled(proxy, 1);
      expect(proxy.counts()).toEqual({ exchanges: 1, recorded: 1, notRecorded: 0 });
      await proxy.close();
      expect(JSON.parse(readFileSync(har, 'utf8')).log.entries).toHaveLength(1);
    } finally {
      await proxy.close();
      await closeServer(up.server);
    }
  });

  it('cuts the upstream request of a client that leaves mid-answer, and records it as cancelled', async () => {
    let upstreamGone!: () => void;
    const cut = new Promise<void>((resolve) => {
      upstreamGone = resolve;
    });
    // An upstream that streams its answer until its client (the proxy) hangs up.
    const up = await upstream((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const tick = setInterval(() => res.write(' '), 20);
      req.socket.once('close', () => {
        clearInterval(tick);
        upstreamGone();
      });
    });
    const har = path.join(dir, 'left.har');
    const proxy = await startProxy({ upstream: up.url, record: har });
    try {
      const port = Number(new URL(proxy.origin).port);
      // A client that FINs after its request may only have half-closed (it still reads): the proxy
      // finds out it left when the answer can no longer be written to it.
      const socket = connect(port, '127.0.0.1', () =>
        socket.write('GET /v3/users HTTP/1.1\r\nhost: x\r\n\r\n'),
      );
      await new Promise((resolve) => socket.once('data', resolve));
      socket.destroy();
      await cut;
      await settled(proxy, 0);
      // Not judged (nothing the provider did), recorded as a browser records a cancelled request.
      expect(proxy.counts()).toEqual({ exchanges: 0, recorded: 1, notRecorded: 0 });
      expect(proxy.findings()).toEqual([]);
      const [entry] = JSON.parse(readFileSync(har, 'utf8')).log.entries;
      expect(entry._error).toBe('the client left before its answer was whole');
      expect(entry.response.status).toBe(200);
    } finally {
      await proxy.close();
      await closeServer(up.server);
    }
  });

  it('streams the answer: the client reads the first chunk before the upstream sent the last', async () => {
    let finish: () => void = () => {};
    const up = await upstream((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"success":true,');
      finish = () => res.end('"message":"ok","data":{"items":[],"page":1,"total_count":0,"total_pages":0}}');
    });
    const proxy = await startProxy({ upstream: up.url });
    try {
      const answer = await request(`${proxy.url}/users`, { headers: { authorization: 'Bearer s-1' } });
      const reader = answer.body[Symbol.asyncIterator]();
      const first = await reader.next();
      expect(String(first.value)).toBe('{"success":true,');
      finish();
      let rest = '';
      for (let next = await reader.next(); !next.done; next = await reader.next()) rest += String(next.value);
      expect(rest).toContain('"total_pages":0}}');
      await settled(proxy, 1);
      expect(proxy.findings()).toEqual([]);
    } finally {
      await proxy.close();
      await closeServer(up.server);
    }
  });

  // An upstream that cuts its answer is tested in proxy-recording.test.ts.

  it('refuses a bad upstream URL with one line', async () => {
    await expect(startProxy({ upstream: 'ftp://x/v3' })).rejects.toThrow(/not an http\(s\) URL/);
    await expect(startProxy({ upstream: 'http://127.0.0.1:1/api' })).rejects.toThrow(/ending in \/v3/);
  });
});

describe('the mock feeds the same observers', () => {
  it('tells start, match and end of each request to an observer given in its options', async () => {
    const seen: string[] = [];
    const mock = await startMock({
      log: () => {},
      observers: [
        {
          start: (request) => seen.push(`start ${request.path}`),
          match: (_request, operationId) => seen.push(`match ${operationId}`),
          end: (event) => seen.push(`end ${event.operationId} ${event.status}`),
        },
      ],
    });
    try {
      await send(`${mock.url}/users`, 'GET');
      expect(seen).toEqual(['start /v3/users', 'match listUsers', 'end listUsers 401']);
    } finally {
      await mock.close();
    }
  });
});

describe('pacu proxy to an https upstream with a private CA', () => {
  it('trusts the certificate given with upstreamCa, and only then', async () => {
    const key = path.join(dir, 'key.pem');
    const cert = path.join(dir, 'cert.pem');
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-keyout',
        key,
        '-out',
        cert,
        '-days',
        '1',
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1',
      ],
      { stdio: 'ignore' },
    );
    const server = createHttps({ key: readFileSync(key), cert: readFileSync(cert) }, (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          success: true,
          message: 'ok',
          data: { items: [], page: 1, total_count: 0, total_pages: 0 },
        }),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `https://127.0.0.1:${(server.address() as { port: number }).port}/v3`;
    const trusted = await startProxy({ upstream: url, upstreamCa: cert });
    const untrusted = await startProxy({ upstream: url });
    try {
      const answer = await send(`${trusted.url}/users`, 'GET', { authorization: 'Bearer tls-token' });
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.text).data.items).toEqual([]);
      expect(trusted.findings()).toEqual([]);
      const refused = await send(`${untrusted.url}/users`, 'GET');
      expect(refused.status).toBe(502);
    } finally {
      await trusted.close();
      await untrusted.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
