// What a newcomer met trying pacu from the tarball: a wrong target, a report path that cannot be
// written, a webhook secret one command took and another refused. Each is one line on stderr and
// exit 2, before any run, from the real `pacu` process against servers on loopback.
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMock, startMock } from '../mock/index.ts';
import { PacuError } from '../spec/index.ts';
import { checkWebhookReceiver } from '../suites/index.ts';
import { PACU_BIN } from './helpers/pacu-bin.ts';

const ENV = Object.fromEntries(
  Object.entries(process.env).filter(
    ([name]) =>
      !['PACU_TARGET', 'PACU_CLIENT_ID', 'PACU_CLIENT_SECRET', 'PACU_WEBHOOK_SECRET'].includes(name),
  ),
);

interface Run {
  code: number | string;
  stdout: string;
  stderr: string;
}

/** `pacu ARGS` as a process; one that has not ended after `timeout` ms is killed (its code: the signal). */
function pacu(args: string[], options: { cwd?: string; timeout?: number } = {}): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [PACU_BIN, ...args],
      {
        env: { ...ENV, NO_COLOR: '1' },
        cwd: options.cwd ?? process.cwd(),
        timeout: options.timeout ?? 60_000,
      },
      (error, stdout, stderr) => {
        const failed = error as { code?: number; signal?: string } | null;
        resolve({ code: failed ? (failed.signal ?? failed.code ?? 1) : 0, stdout, stderr });
      },
    );
  });
}

function listen(server: Server): Promise<string> {
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve(`http://127.0.0.1:${(server.address() as { port: number }).port}`),
    ),
  );
}

/** One line on stderr, nothing on stdout, exit 2. */
function expectOneLine(run: Run, line: RegExp): void {
  expect({ code: run.code, stdout: run.stdout }).toEqual({ code: 2, stdout: '' });
  expect(run.stderr).toMatch(/^pacu: [^\n]+\n$/);
  expect(run.stderr).toMatch(line);
}

describe('pacu verify at a server that is not this API', () => {
  const servers: Server[] = [];
  let html = '';
  let notFound = '';

  beforeAll(async () => {
    const page = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>It works!</body></html>');
    });
    const missing = createServer((_request, response) => {
      response.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}');
    });
    servers.push(page, missing);
    html = `${await listen(page)}/v3`;
    notFound = await listen(missing);
  });

  afterAll(() => {
    for (const server of servers) {
      server.closeAllConnections();
      server.close();
    }
  });

  it('answers as pacu check does: one line and exit 2, with client credentials or without', async () => {
    const flags = ['--client-id', 'merchant', '--client-secret', 'merchant-secret'];
    const [verify, bare, check] = await Promise.all([
      pacu(['verify', '--target', html, ...flags]),
      pacu(['verify', '--target', html]),
      pacu(['check', '--target', html, ...flags]),
    ]);
    const notJson =
      /^pacu: POST \/auth\/token answered HTTP 200 text\/html, not JSON: is http:\/\/127\.0\.0\.1:\d+\/v3 the API's base URL/;
    expectOneLine(verify, notJson);
    expectOneLine(bare, notJson);
    expectOneLine(check, notJson);
    expect(verify.stderr).not.toContain('merchant-secret');
  });

  it('asks whether the URL ends in /v3 when the token endpoint is not there', async () => {
    expectOneLine(
      await pacu(['verify', '--target', notFound, '--client-id', 'a', '--client-secret', 'b']),
      /answered 404: does the target URL end in \/v3\?/,
    );
  });
});

describe('report paths that cannot be written', () => {
  it('refuses a folder on a file system that takes none at once, without spinning', async () => {
    const run = await pacu(['check', '--runs', '1', '--reporter', 'json:/proc/nope/r.json'], {
      timeout: 30_000,
    });
    expectOneLine(
      run,
      /^pacu: cannot write the json report to \/proc\/nope\/r\.json: cannot make the folder \/proc\/nope: /,
    );
  });

  it('says "not a directory" for a path through a file, naming it as the user wrote it', async () => {
    const cwd = mkdtempSync(path.join(tmpdir(), 'pacu-report-path-'));
    writeFileSync(path.join(cwd, 'package.json'), '{}\n');
    const [json, deeper] = await Promise.all([
      pacu(['check', '--runs', '1', '--reporter', 'json:package.json/r.json'], { cwd }),
      pacu(['verify', '--reporter', 'junit:package.json/a/b/r.xml'], { cwd }),
    ]);
    expectOneLine(
      json,
      /^pacu: cannot write the json report to package\.json\/r\.json: package\.json is not a directory\n$/,
    );
    expectOneLine(
      deeper,
      /^pacu: cannot write the junit report to package\.json\/a\/b\/r\.xml: package\.json is not a directory\n$/,
    );
  });
});

describe('webhook secrets: one rule for pacu mock, its control API and pacu webhooks check', () => {
  const receiver = 'http://127.0.0.1:9/hooks';
  let mock: RunningMock;

  beforeAll(async () => {
    mock = await startMock({ clock: 'manual', log: () => {} });
  });
  afterAll(async () => {
    await mock.close();
  });

  it.each([['whsec_%%%not-base64'], ['whsec_'], ['whsec_abc-_']])(
    '%s is refused by both commands with the same reason, and by the control API',
    async (secret) => {
      const [served, checked] = await Promise.all([
        pacu(['mock', '--port', '0', '--webhook-url', receiver, '--webhook-secret', secret], {
          timeout: 30_000,
        }),
        pacu(['webhooks', 'check', '--receiver', receiver, '--secret', secret]),
      ]);
      const reason = /must be base64 after whsec_ \(as Standard Webhooks secrets are\)/;
      expectOneLine(served, reason);
      expectOneLine(checked, reason);
      expect(served.stderr.replace('--webhook-secret', '--secret')).toBe(checked.stderr);
      const added = await fetch(`${mock.origin}/__pacu/webhooks/receivers`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ url: receiver, secret }),
      });
      expect(added.status).toBe(400);
      expect(JSON.stringify(await added.json())).toMatch(reason);
    },
  );

  it('takes a secret the mock takes: webhooks check goes on to the receiver', async () => {
    const run = await pacu([
      'webhooks',
      'check',
      '--receiver',
      receiver,
      '--secret',
      'a plain shared secret',
    ]);
    expect(run.stderr).toMatch(/^pacu: cannot reach .*127\.0\.0\.1:9/);
  });

  it('checkWebhookReceiver without a secret is a usage error, not a TypeError', async () => {
    const refused = checkWebhookReceiver({ receiver, secret: undefined as unknown as string });
    await expect(refused).rejects.toBeInstanceOf(PacuError);
    await expect(refused).rejects.toThrow(
      /^pacu: --secret is missing: give the secret the receiver verifies with$/,
    );
  });
});
