// No secret in clear, by one policy, wherever the proxy or the mock shows
// traffic: the recording, stderr and stdout, every report, /__pacu/exchanges, /__pacu/findings and
// the mock's request journal. A `pacu proxy` process in front of an upstream that echoes what it
// is sent, as a careless provider does.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock } from '../mock/index.ts';
import { startProxyCli } from './helpers/proxy-process.ts';
import { tokenFor } from './mock-helpers.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'pacu-redaction-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Credentials the proxy was never told of and never saw issued. */
const SECRETS = {
  clientSecret: 'cs-9f8e7d6c5b4a3210',
  cookie: 'sess-4b1d6e8a2c9f7e5d',
  apiKey: 'key-7a3c9e1b5d8f2a4c',
  bodyToken: 'tok-2e4a6c8e0b1d3f5a',
} as const;
/** A team's own names, which only `--redact-header` and `--redact-field` make credentials. */
const TEAM = {
  header: 'x-shop-sig',
  signature: 'sig-0a1b2c3d4e5f6a7b',
  field: 'iban',
  iban: 'DE89370400440532013000',
};

let upstream: Server;
let upstreamUrl: string;
beforeAll(async () => {
  // Echoes the request body as `data`, the API key as `data.caller`, the body's token as `data.note`.
  upstream = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      const sent = body ? (JSON.parse(body) as Record<string, unknown>) : {};
      res.writeHead(200, {
        'content-type': 'application/json',
        'set-cookie': `sess=${SECRETS.cookie}; Path=/`,
      });
      res.end(
        JSON.stringify({
          success: true,
          message: 'ok',
          data: {
            ...sent,
            caller: req.headers['x-api-key'],
            note: sent.api_token,
            sig: req.headers[TEAM.header],
          },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as { port: number }).port}/v3`;
});
afterAll(() => {
  upstream.closeAllConnections();
  upstream.close();
});

/** Everything the proxy showed of its traffic, as text. */
async function throughProxy(
  extraArgs: string[],
  body: Record<string, unknown>,
  headers: Record<string, string>,
) {
  const har = path.join(dir, `${extraArgs.length}.har`);
  const report = path.join(dir, `${extraArgs.length}.json`);
  const proxy = await startProxyCli([
    '--upstream',
    upstreamUrl,
    '--record',
    har,
    '--reporter',
    `json:${report}`,
    '--reporter',
    'console',
    ...extraArgs,
  ]);
  // A body the description does not allow: a client-side finding shows the whole exchange.
  const answer = await request(`${proxy.info.url}/accounts`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: `sess=${SECRETS.cookie}; theme=dark`, ...headers },
    body: JSON.stringify(body),
  });
  const echoed = await answer.body.text();
  await new Promise((resolve) => setTimeout(resolve, 200));
  const control = new URL(proxy.info.url).origin;
  const exchanges = await (await request(`${control}/__pacu/exchanges`)).body.text();
  const findings = await (await request(`${control}/__pacu/findings`)).body.text();
  proxy.child.kill('SIGTERM');
  await proxy.exit;
  return {
    echoed,
    shown: {
      recording: readFileSync(har, 'utf8'),
      report: readFileSync(report, 'utf8'),
      stdout: proxy.stdout(),
      stderr: proxy.stderr(),
      exchanges,
      findings,
    },
  };
}

describe('finding 9: secrets the proxy was never told of', () => {
  it('redacts a client secret in a body, and a token in a cookie, an x-api-key, a body field and its echo', async () => {
    const { echoed, shown } = await throughProxy(
      [],
      { user_id: 'usr_1', client_secret: SECRETS.clientSecret, api_token: SECRETS.bodyToken },
      { 'x-api-key': SECRETS.apiKey },
    );
    // The client got the answer as it came: the echo holds them all.
    for (const secret of [SECRETS.clientSecret, SECRETS.apiKey, SECRETS.bodyToken])
      expect(echoed).toContain(secret);
    expect(JSON.parse(shown.findings)).not.toEqual([]);
    for (const [where, text] of Object.entries(shown))
      for (const [name, secret] of Object.entries(SECRETS))
        expect(text.includes(secret), `${name} in clear in the ${where}`).toBe(false);
    // What is not a credential is left as it was.
    expect(shown.recording).toContain('usr_1');
    expect(shown.recording).toContain('theme=[redacted]');
  }, 60_000);

  it("redacts a team's own header and field names given with --redact-header and --redact-field", async () => {
    const { shown } = await throughProxy(
      ['--redact-header', TEAM.header, '--redact-field', TEAM.field],
      { user_id: 'usr_2', [TEAM.field]: TEAM.iban },
      { [TEAM.header]: TEAM.signature },
    );
    for (const [where, text] of Object.entries(shown))
      for (const secret of [TEAM.signature, TEAM.iban])
        expect(text.includes(secret), `${secret} in clear in the ${where}`).toBe(false);
    expect(shown.recording).toContain('usr_2');
  }, 60_000);
});

describe("finding 9: the mock's journal and recording redact by the same policy", () => {
  it('shows no credential field, header value or echo in /__pacu/requests and the recording', async () => {
    const har = path.join(dir, 'mock.har');
    const mock = await startMock({ record: har, redactFields: [TEAM.field], log: () => {} });
    try {
      const token = await tokenFor(mock);
      await fetch(`${mock.url}/accounts`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          'x-api-key': SECRETS.apiKey,
        },
        body: JSON.stringify({
          user_id: 'usr_3',
          client_secret: SECRETS.clientSecret,
          [TEAM.field]: TEAM.iban,
        }),
      });
      const journal = await (await fetch(`${mock.origin}/__pacu/requests`)).text();
      const recording = readFileSync(har, 'utf8');
      for (const text of [journal, recording])
        for (const secret of [
          token,
          SECRETS.clientSecret,
          SECRETS.apiKey,
          TEAM.iban,
          mock.demoClient.clientSecret,
        ])
          expect(text).not.toContain(secret);
      expect(JSON.parse(journal).at(-1).body).toMatchObject({
        user_id: 'usr_3',
        client_secret: '[redacted]',
        [TEAM.field]: '[redacted]',
      });
    } finally {
      await mock.close();
    }
  });
});

describe('the journal redacts with what the redactor knew when it kept an entry', () => {
  // The journal redacts when read, the redactor keeps the newest 1,024 learned secrets: churned out
  // by later ones, an echo of an issued token in an entry still kept came back in clear.
  it('keeps an echoed token redacted after the redactor forgot it, while the entry is kept', async () => {
    const mock = await startMock({ log: () => {} });
    const basic = (id: string, secret: string): string =>
      `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    try {
      const token = await tokenFor(mock);
      await fetch(`${mock.url}/payments/usd/direct`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ description: `paid with ${token}` }),
      });
      const journal = async (): Promise<string> => (await fetch(`${mock.origin}/__pacu/requests`)).text();
      expect(await journal()).not.toContain(token);
      // 600 token requests with clients nobody knows: each teaches two secrets (the Basic
      // credential and its password), 1,200 in all, while the journal (1,000) still holds the echo.
      for (let i = 0; i < 600; i++)
        await fetch(`${mock.url}/auth/token`, {
          method: 'POST',
          headers: { ...form, authorization: basic(`client-${i}-unknown`, `secret-${i}-unknown`) },
          body: 'grant_type=client_credentials',
        });
      const after = await journal();
      expect(after).toContain('paid with');
      expect(after).not.toContain(token);
    } finally {
      await mock.close();
    }
  }, 60_000);
});

describe("the proxy's ring and findings redact with what the redactor knew when they kept an exchange", () => {
  // An upstream that answers every request 200 with an envelope, whatever it was sent.
  let upstream: Server;
  let upstreamUrl = '';
  beforeAll(async () => {
    upstream = createServer((incoming, response) => {
      incoming.resume();
      incoming.on('end', () => {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end('{"success":true,"message":"ok","data":{}}');
      });
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    upstreamUrl = `http://127.0.0.1:${(upstream.address() as { port: number }).port}/v3`;
  });
  afterAll(() => new Promise<void>((resolve) => upstream.close(() => resolve())));

  it('keeps an echoed token redacted after the redactor forgot it', async () => {
    const { startProxy } = await import('../proxy/index.ts');
    const proxy = await startProxy({ upstream: upstreamUrl, keepExchanges: 1000, log: () => {} });
    const token = 'tok-echoed-5c1e9a7b3d2f4e6a8c0b';
    try {
      // The token is learned from the Authorization header; its echo in a description is not a
      // credential by name, and the body breaks the transfer's schema: a finding keeps it too.
      await fetch(`${proxy.url}/payments/usd/direct`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ description: `paid with ${token}` }),
      });
      for (let i = 0; i < 600; i++)
        await fetch(`${proxy.url}/auth/token`, {
          method: 'POST',
          headers: {
            authorization: `Basic ${Buffer.from(`client-${i}-unknown:secret-${i}-unknown`).toString('base64')}`,
            'content-type': 'application/x-www-form-urlencoded',
          },
          body: 'grant_type=client_credentials',
        });
      const ring = JSON.stringify(proxy.exchanges());
      const findings = JSON.stringify(proxy.findings());
      expect(ring).toContain('paid with');
      expect(findings).toContain('paid with');
      expect(ring).not.toContain(token);
      expect(findings).not.toContain(token);
      const shown = await (await fetch(`${proxy.origin}/__pacu/exchanges`)).text();
      expect(shown).not.toContain(token);
    } finally {
      await proxy.close();
    }
  }, 60_000);
});
