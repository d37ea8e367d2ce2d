import { readFileSync } from 'node:fs';
import { createServer as createNetServer, type Server } from 'node:net';
import { describe, expect, it } from 'vitest';
import type { Report } from '../suites/index.ts';
import { cardIdArgs, checkArgs, closers, oneLine, provider, run, tempDir } from './helpers/check-run.ts';
import { TEST_SEED } from './providers/run-against.ts';

describe('finding 10: the printed replay line reproduces on its own', () => {
  it('carries --target, --profile and the ids; run as printed (credentials from the environment) it fails again', async () => {
    const target = await provider({ style: 'different', breaks: 'errors.unknown-id' });
    const dir = tempDir();
    const first = await run([
      ...checkArgs(target),
      ...cardIdArgs(target),
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
