// `pacu proxy` as a process: started with --json, traffic through it, stopped with SIGTERM; the
// reports, the recording and the exit code are what the issue asks for, and no secret is in any.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMock, startMock } from '../mock/index.ts';
import { startProxyCli as startProxy } from './helpers/proxy-process.ts';
import { runCli } from './helpers/run-cli.ts';

const SECRET = 'cli-proxy-secret-4567';
const CLIENT = 'cli-proxy-client';
const dir = mkdtempSync(path.join(tmpdir(), 'pacu-proxy-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const startProxyCli = (args: string[]) =>
  startProxy(args, { PACU_CLIENT_SECRET: SECRET, PACU_CLIENT_ID: CLIENT });

const basic = `Basic ${Buffer.from(`${CLIENT}:${SECRET}`).toString('base64')}`;

async function post(url: string, headers: Record<string, string>, body: string): Promise<string> {
  const answer = await request(url, { method: 'POST', headers, body });
  return answer.body.text();
}

describe('pacu proxy (the CLI)', () => {
  let mock: RunningMock;
  beforeAll(async () => {
    mock = await startMock({
      clients: [{ clientId: CLIENT, clientSecret: SECRET, scopes: ['card', 'us_account'] }],
      log: () => {},
    });
  });
  afterAll(async () => {
    await mock?.close();
  });

  it('reports a client-side finding, writes the reports at SIGTERM and exits 0 (1 with --fail-on client)', async () => {
    const har = path.join(dir, 'cli.har');
    const json = path.join(dir, 'report.json');
    const markdown = path.join(dir, 'report.md');
    for (const failOn of ['provider', 'client']) {
      const proxy = await startProxyCli([
        '--upstream',
        mock.url,
        '--record',
        har,
        '--reporter',
        `json:${json}`,
        '--reporter',
        `markdown:${markdown}`,
        '--fail-on',
        failOn,
      ]);
      expect(proxy.info.upstream).toBe(mock.url);
      expect(proxy.info.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v3$/);
      const token = JSON.parse(
        await post(
          `${proxy.info.url}/auth/token`,
          { authorization: basic, 'content-type': 'application/x-www-form-urlencoded' },
          'grant_type=client_credentials&scope=card,us_account',
        ),
      ).data.access_token as string;
      // The client spells the field as the description's list of required fields does: a client-side finding.
      await post(
        `${proxy.info.url}/payments/usd/direct`,
        { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        JSON.stringify({
          account_id: mock.seeded.merchantAccountId,
          account_number: '123456789',
          account_type: 'CHECKING',
          amount: 5,
          routing_number: '021000021',
          transfer_type: 'ACH',
          reference: `cli-${failOn}`,
          recipient_email: 'a@example.com',
          receipient_name: 'Ann',
        }),
      );
      await new Promise((resolve) => setTimeout(resolve, 100));
      proxy.child.kill('SIGTERM');
      const code = await proxy.exit;
      expect(code, proxy.stderr()).toBe(failOn === 'client' ? 1 : 0);
      expect(proxy.stderr()).toMatch(/^pacu: client client\.request-shape on usdTransfer/m);
      const report = JSON.parse(readFileSync(json, 'utf8'));
      expect(report.command).toBe('proxy');
      const failed = report.rules.filter((rule: { status: string }) => rule.status === 'failed');
      expect(failed.map((rule: { id: string }) => rule.id)).toEqual(['client.request-shape']);
      expect(failed[0].failure.curl).toContain(`curl -i -X POST '${mock.url}/payments/usd/direct'`);
      expect(failed[0].failure.curl).toContain('$PACU_TOKEN');
      for (const text of [
        readFileSync(json, 'utf8'),
        readFileSync(markdown, 'utf8'),
        readFileSync(har, 'utf8'),
        proxy.stderr(),
        proxy.stdout(),
      ]) {
        expect(text).not.toContain(SECRET);
        expect(text).not.toContain(token);
        expect(text).not.toContain(basic.slice(6));
      }
      // The second run continues the first one's recording (it never truncates one).
      expect(JSON.parse(readFileSync(har, 'utf8')).log.entries).toHaveLength(failOn === 'client' ? 4 : 2);
    }
  });

  it('exits 1 when the provider broke the description, and writes the coverage the traffic reached', async () => {
    const broken = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('ok');
    });
    await new Promise<void>((resolve) => broken.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(broken.address() as { port: number }).port}/v3`;
    const json = path.join(dir, 'broken.json');
    const coverage = path.join(dir, 'coverage.json');
    const proxy = await startProxyCli([
      '--upstream',
      url,
      '--reporter',
      `json:${json}`,
      '--coverage-report',
      coverage,
    ]);
    try {
      expect(await (await request(`${proxy.info.url}/users`)).body.text()).toBe('ok');
      await new Promise((resolve) => setTimeout(resolve, 100));
      proxy.child.kill('SIGTERM');
      expect(await proxy.exit).toBe(1);
      expect(proxy.stderr()).toMatch(/^pacu: provider envelope\.content-type on listUsers/m);
      expect(JSON.parse(readFileSync(json, 'utf8')).summary.failed).toBe(1);
      // The mock's coverage, fed by the proxy's request events.
      const reached = JSON.parse(readFileSync(coverage, 'utf8')).operations;
      expect(
        reached.find((row: { operationId: string }) => row.operationId === 'listUsers').statuses,
      ).toEqual({ 200: 1 });
    } finally {
      broken.closeAllConnections();
      broken.close();
    }
  });

  it('writes the recorded interactions as a pact at SIGTERM (--pact-out)', async () => {
    const out = path.join(dir, 'pacts');
    const proxy = await startProxyCli([
      '--upstream',
      mock.url,
      '--pact-out',
      out,
      '--consumer',
      'shop',
      '--provider',
      'pacu-sandbox',
    ]);
    const token = JSON.parse(
      await post(
        `${proxy.info.url}/auth/token`,
        { authorization: basic, 'content-type': 'application/x-www-form-urlencoded' },
        'grant_type=client_credentials&scope=card,us_account',
      ),
    ).data.access_token as string;
    await request(`${proxy.info.url}/users`, { headers: { authorization: `Bearer ${token}` } }).then(
      (answer) => answer.body.text(),
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    proxy.child.kill('SIGTERM');
    expect(await proxy.exit, proxy.stderr()).toBe(0);
    const file = /pact written to (.+)$/m.exec(proxy.stderr())?.[1] ?? '';
    const pact = readFileSync(file, 'utf8');
    expect(JSON.parse(pact).interactions.length).toBeGreaterThan(0);
    expect(pact).not.toContain(SECRET);
    expect(pact).not.toContain(token);
  });

  it('shows the last --keep-exchanges exchanges on GET /__pacu/exchanges, and refuses a bad count', async () => {
    const proxy = await startProxyCli(['--upstream', mock.url, '--keep-exchanges', '2']);
    for (const page of [1, 2, 3]) await (await fetch(`${proxy.info.url}/users?page=${page}`)).text();
    await new Promise((resolve) => setTimeout(resolve, 100));
    const kept = (await (await fetch(`${new URL(proxy.info.url).origin}/__pacu/exchanges`)).json()) as Array<{
      request: { path: string };
    }>;
    expect(kept.map((exchange) => exchange.request.path)).toEqual(['/users?page=2', '/users?page=3']);
    proxy.child.kill('SIGTERM');
    await proxy.exit;
    const { code, stderr } = await runCli(['proxy', '--upstream', mock.url, '--keep-exchanges', '-1']);
    expect(code).toBe(2);
    expect(stderr.trim().split('\n')).toHaveLength(1);
  });

  it('refuses a bad --upstream with one line and exit 2', async () => {
    for (const upstream of ['not a url', 'ftp://example.com/v3', 'http://127.0.0.1:9/api']) {
      const { code, stderr } = await runCli(['proxy', '--upstream', upstream]);
      expect(code).toBe(2);
      expect(stderr.trim().split('\n')).toHaveLength(1);
      expect(stderr).toMatch(/^pacu: --upstream/);
    }
  });
});
