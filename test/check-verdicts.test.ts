import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer as createNetServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { main } from '../cli/main.ts';
import { startMock } from '../mock/index.ts';
import { ConfigError } from '../spec/index.ts';
import { assertConformance, type Report, resolveTargetConfig, runChecks } from '../suites/index.ts';
import { startHtmlServer } from './providers/html-server.ts';
import { checkTestProvider, failedRuleIds, failuresIn, TEST_SEED } from './providers/run-against.ts';
import { startTestProvider, type TestProvider } from './providers/test-provider.ts';

const closers: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function run(args: string[], env: Record<string, string> = {}) {
  let stdout = '';
  let stderr = '';
  const saved = { ...process.env };
  Object.assign(process.env, env);
  try {
    const exitCode = await main(args, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
    return { exitCode, stdout, stderr };
  } finally {
    for (const key of Object.keys(env)) if (saved[key] === undefined) delete process.env[key];
  }
}

async function provider(options: Parameters<typeof startTestProvider>[0]): Promise<TestProvider> {
  const started = await startTestProvider(options);
  closers.push(() => started.close());
  return started;
}

const oneLine = (stderr: string): string[] => stderr.trim().split('\n');
const tempDir = (): string => mkdtempSync(path.join(tmpdir(), 'pacu-verdicts-'));

describe('no false greens', () => {
  it('finding 1: a target without credentials is exit 2 with one line, and assertConformance rejects', async () => {
    const target = await provider({ style: 'different' });
    const result = await run(['check', '--target', target.url]);
    expect(result.exitCode).toBe(2);
    expect(oneLine(result.stderr)).toEqual([
      expect.stringMatching(/^pacu: no client credentials: pass --client-id/),
    ]);
    expect(result.stdout).not.toMatch(/passed/);
    await expect(assertConformance({ target: resolveTargetConfig({ target: target.url }) })).rejects.toThrow(
      ConfigError,
    );
  });

  it('finding 1: a category that could not run at all is said first, before the matrix', async () => {
    const target = await provider({ style: 'different' });
    const result = await run([
      'check',
      '--target',
      target.url,
      '--client-id',
      target.client.clientId,
      '--client-secret',
      target.client.clientSecret,
      '--runs',
      '3',
    ]);
    expect(result.exitCode).toBe(0);
    const note = result.stdout.indexOf('note: lifecycle: nothing checked');
    expect(note).toBeGreaterThan(-1);
    expect(note).toBeLessThan(result.stdout.search(/^operation\s+envelope/m));
  });

  it.each([
    [
      'a server answering 200 text/html to everything',
      'html',
      /POST \/auth\/token answered HTTP 200 text\/html.*not JSON/,
    ],
    ['a base URL without /v3', 'no-v3', /POST \/auth\/token answered 404: does the target URL end in \/v3\?/],
  ])('finding 3: %s is exit 2 with the hint', async (_name, kind, line) => {
    const target = kind === 'html' ? await startHtmlServer() : await provider({ style: 'different' });
    if (kind === 'html') closers.push(() => target.close());
    const url = kind === 'html' ? target.url : target.origin;
    const result = await run([
      'check',
      '--target',
      url,
      '--client-id',
      'client',
      '--client-secret',
      'test-secret',
    ]);
    expect(result.exitCode).toBe(2);
    expect(oneLine(result.stderr)).toEqual([expect.stringMatching(line)]);
  });

  it('finding 4: a --control-url that is not a pacu mock is exit 2', async () => {
    const target = await provider({ style: 'different' });
    const html = await startHtmlServer();
    closers.push(() => html.close());
    const result = await run([
      'check',
      '--target',
      target.url,
      '--client-id',
      target.client.clientId,
      '--client-secret',
      target.client.clientSecret,
      '--control-url',
      html.origin,
      '--profile',
      'strict',
    ]);
    expect(result.exitCode).toBe(2);
    expect(oneLine(result.stderr)).toEqual([
      expect.stringMatching(/^pacu: --control-url http:\/\/127\.0\.0\.1:\d+: /),
    ]);
  });

  it('finding 5: the envelope of every error answer is judged (409 and 413 answers too)', async () => {
    const report = await checkTestProvider({ style: 'pacu', brokenErrorStatuses: [409, 413] }, 'strict');
    expect(failedRuleIds(report), failuresIn(report).join('\n')).toEqual(['envelope.error-shape']);
    const reasons = report.rules
      .filter((rule) => rule.status === 'failed')
      .map((rule) => rule.failure?.reason);
    expect(reasons.join('\n')).toMatch(
      /HTTP 409 answer \(received by idempotency\.same-reference-different-body\)/,
    );
    expect(reasons.join('\n')).toMatch(/HTTP 413 answer \(received by errors\.limits\)/);
  });
});

describe('no false reds', () => {
  it('finding 7: against `pacu mock --token-lifetime 1` every rule passes; tokens are refreshed, not blamed', async () => {
    const mock = await startMock({ tokenLifetimeSeconds: 1, log: () => {} });
    closers.push(() => mock.close());
    const report = await runChecks({
      target: resolveTargetConfig({
        target: mock.url,
        clientId: mock.demoClient.clientId,
        clientSecret: mock.demoClient.clientSecret,
      }),
      seed: TEST_SEED,
      runs: 30,
    });
    expect(failuresIn(report)).toEqual([]);
  });

  it('finding 7: a token that dies early is renewed once and retried, and the report says so', async () => {
    // pacu's style answers 401 to a dead token; the token still claims 3600 s, so only the retry saves the run.
    const report = await checkTestProvider(
      { style: 'pacu', tokensDieAfterSeconds: 1 },
      'documented',
      undefined,
      40,
    );
    expect(failuresIn(report)).toEqual([]);
    expect(report.notes?.join('\n')).toMatch(/answered 401 to a token pacu held \d+ time/);
  });

  it('finding 8: a failure carries the profile of the assertion that failed', async () => {
    // The `different` provider keeps everything the description states, so under strict only decisions fail.
    const report = await checkTestProvider('different', 'strict');
    const failed = report.rules.filter((rule) => rule.status === 'failed');
    expect(failed.map((rule) => rule.id)).toEqual(
      expect.arrayContaining(['errors.invalid-body', 'idempotency.same-reference-different-body']),
    );
    for (const rule of failed) {
      expect(rule.profile, `${rule.id} on ${rule.operation}: ${rule.failure?.reason}`).toBe('strict');
      expect(rule.failure?.profile).toBe('strict');
    }
  });

  it('finding 9: with no user on the target, skip reasons say what is really missing', async () => {
    const report = await checkTestProvider({ style: 'different', noUsers: true }, 'documented');
    const reason = (id: string, operation: string): string | undefined =>
      report.rules.find((rule) => rule.id === id && rule.operation === operation)?.skipReason;
    expect(reason('positive.accepted', 'usdTransfer')).toMatch(
      /^needs --account-id, or a user to create one for with createAccount \(needs --user-id \(GET \/users answered HTTP 200 with no user\)\)$/,
    );
    expect(reason('positive.accepted', 'createAccount')).toMatch(/^needs --user-id \(GET \/users/);
    expect(reason('positive.accepted', 'getPushToCardPayment')).toMatch(
      /no operation creates a push-to-card payment/,
    );
    for (const rule of report.rules)
      expect(rule.skipReason ?? '').not.toMatch(/needs --account-id \(no operation creates one\)/);
  });
});

describe('finding 10: the printed replay line reproduces on its own', () => {
  it('carries --target, --profile and the ids; run as printed (credentials from the environment) it fails again', async () => {
    const target = await provider({ style: 'different', breaks: 'errors.unknown-id' });
    const dir = tempDir();
    const first = await run([
      'check',
      '--target',
      target.url,
      '--client-id',
      target.client.clientId,
      '--client-secret',
      target.client.clientSecret,
      '--card-id',
      target.ids.cardId,
      '--card-transaction-id',
      target.ids.cardTransactionId,
      '--push-to-card-id',
      target.ids.pushToCardId,
      '--seed',
      String(TEST_SEED),
      '--runs',
      '5',
      '--reporter',
      'console',
      '--reporter',
      `json:${dir}/r.json`,
    ]);
    expect(first.exitCode).toBe(1);
    const line = /replay: +pacu (check --replay .*)$/m.exec(first.stdout)?.[1] ?? '';
    expect(line).toContain(`--target ${target.url}`);
    expect(line).toContain('--profile documented');
    expect(line).toContain(`--card-id ${target.ids.cardId}`);
    expect(line).toContain('--account-id ');
    expect(line).not.toContain(target.client.clientSecret);
    const env = { PACU_CLIENT_ID: target.client.clientId, PACU_CLIENT_SECRET: target.client.clientSecret };
    const replay = await run(line.split(' '), env);
    expect(replay.exitCode, replay.stderr).toBe(1);

    // With --report-file the target, profile and ids come from the report.
    const id = (JSON.parse(readFileSync(`${dir}/r.json`, 'utf8')) as Report).rules.find((r) => r.failure)
      ?.failure?.id;
    const fromReport = await run(
      [
        'check',
        '--replay',
        id ?? '',
        '--report-file',
        `${dir}/r.json`,
        '--reporter',
        `json:${dir}/again.json`,
      ],
      env,
    );
    expect(fromReport.exitCode, fromReport.stderr).toBe(1);
    expect((JSON.parse(readFileSync(`${dir}/again.json`, 'utf8')) as Report).target).toBe(target.url);
  });

  it('an explicit --profile is never replaced by the report', async () => {
    const target = await provider({ style: 'different' });
    const dir = tempDir();
    const flags = ['--target', target.url, '--client-id', 'client', '--client-secret', 'test-secret'];
    await run([
      'check',
      ...flags,
      '--profile',
      'strict',
      '--seed',
      String(TEST_SEED),
      '--runs',
      '5',
      '--reporter',
      `json:${dir}/r.json`,
    ]);
    const id = (JSON.parse(readFileSync(`${dir}/r.json`, 'utf8')) as Report).rules.find((r) => r.failure)
      ?.failure?.id;
    expect(id).toBeDefined();
    await run([
      'check',
      ...flags,
      '--replay',
      id ?? '',
      '--report-file',
      `${dir}/r.json`,
      '--profile',
      'documented',
      '--reporter',
      `json:${dir}/d.json`,
    ]);
    expect((JSON.parse(readFileSync(`${dir}/d.json`, 'utf8')) as Report).profile).toBe('documented');
  });
});

describe('finding 12: what is not a usable target is one line and exit 2', () => {
  async function tcpServer(onData: (socket: import('node:net').Socket) => void): Promise<Server> {
    const server = createNetServer((socket) => socket.on('data', () => onData(socket)));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    closers.push(() => new Promise((resolve) => server.close(resolve)));
    return server;
  }
  const portOf = (server: Server): number => (server.address() as { port: number }).port;

  it.each([
    ['a target that speaks no HTTP', 'garbage', /not HTTP\/1\.1/],
    ['https:// against an http server', 'https', /TLS handshake failed/],
    [
      'a --control-url where nothing listens',
      'control',
      /^pacu: --control-url http:\/\/127\.0\.0\.1:\d+: .*(connection refused|ECONNREFUSED)/,
    ],
    [
      'a --webhook-receiver-url whose port is taken',
      'webhook',
      /^pacu: cannot listen for webhooks on 127\.0\.0\.1:\d+: the port is taken/,
    ],
  ])('%s', async (_name, kind, line) => {
    const target = await provider({ style: 'different' });
    const credentials = [
      '--client-id',
      target.client.clientId,
      '--client-secret',
      target.client.clientSecret,
    ];
    let args: string[];
    if (kind === 'garbage') {
      const server = await tcpServer((socket) => socket.end('hello there\r\n\r\n'));
      args = ['--target', `http://127.0.0.1:${portOf(server)}/v3`];
    } else if (kind === 'https') {
      args = ['--target', target.url.replace('http:', 'https:')];
    } else if (kind === 'control') {
      const closed = await tcpServer(() => {});
      const port = portOf(closed);
      await new Promise((resolve) => closed.close(resolve));
      args = ['--target', target.url, '--control-url', `http://127.0.0.1:${port}`];
    } else {
      const taken = await tcpServer(() => {});
      args = [
        '--target',
        target.url,
        '--webhook-receiver-url',
        `http://127.0.0.1:${portOf(taken)}/hooks`,
        '--webhook-secret',
        'whsec_c2VjcmV0',
      ];
    }
    const result = await run(['check', ...args, ...credentials, '--runs', '2']);
    expect(result.exitCode).toBe(2);
    expect(oneLine(result.stderr)).toEqual([expect.stringMatching(line)]);
    expect(result.stderr).not.toMatch(/unexpected error|\n\s+at /);
  });
});
