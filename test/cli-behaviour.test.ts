// The CLI as a CI log or a shell sees it: colours, how much it prints, where reports go, where the
// target comes from. Each case runs the real `pacu` process (from the sources), so terminals,
// environment and working directory are the real ones.
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMock, startMock } from '../mock/index.ts';
import { API_CLIENT_DEFAULTS } from '../suites/index.ts';
import { PACU_BIN } from './helpers/pacu-bin.ts';

const CLEAN_ENV = Object.fromEntries(
  Object.entries(process.env).filter(
    ([name]) =>
      !['NO_COLOR', 'FORCE_COLOR', 'PACU_TARGET', 'PACU_CLIENT_ID', 'PACU_CLIENT_SECRET'].includes(name),
  ),
);

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function pacu(args: string[], options: { env?: Record<string, string>; cwd?: string } = {}): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [PACU_BIN, ...args],
      { env: { ...CLEAN_ENV, ...options.env }, cwd: options.cwd ?? process.cwd(), maxBuffer: 2 ** 26 },
      (error, stdout, stderr) =>
        resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

const QUICK = ['check', '--rule', 'envelope.content-type', '--runs', '3'];
const ESC = '\u001b[';

function listen(server: Server): Promise<number> {
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port)),
  );
}

describe('pacu check output', () => {
  // How pacu prints is the same whatever it checks: a mock this file starts, not one per process.
  let mock: RunningMock;
  let quick: string[] = [];
  // `pacu check` with no output option: the same run serves the colour and the CI-log cases.
  let plainRun: Promise<Run> | undefined;
  const plain = (): Promise<Run> => {
    plainRun ??= pacu(quick);
    return plainRun;
  };
  beforeAll(async () => {
    mock = await startMock({ log: () => {} });
    const { clientId, clientSecret } = mock.demoClient;
    const { cardId, cardTransactionId, pushToCardId } = mock.seeded;
    quick = [
      ...QUICK,
      ...['--target', mock.url, '--control-url', mock.origin],
      ...['--client-id', clientId, '--client-secret', clientSecret],
      ...['--card-id', cardId, '--card-transaction-id', cardTransactionId, '--push-to-card-id', pushToCardId],
    ];
  });
  afterAll(async () => {
    await mock.close();
  });

  it('colours only on a terminal or with FORCE_COLOR, and never with NO_COLOR', async () => {
    const [uncoloured, forced, refused] = await Promise.all([
      plain(),
      pacu(quick, { env: { FORCE_COLOR: '1' } }),
      pacu(quick, { env: { FORCE_COLOR: '1', NO_COLOR: '1' } }),
    ]);
    expect(uncoloured.code).toBe(0);
    expect(uncoloured.stdout).not.toContain(ESC);
    expect(forced.stdout).toContain(`${ESC}32mpass`);
    expect(refused.stdout).not.toContain(ESC);
  });

  it('prints no per-check lines in a CI log unless --verbose, and only the summary with --quiet', async () => {
    const [log, verbose, quiet] = await Promise.all([
      plain(),
      pacu([...quick, '--verbose']),
      pacu([...quick, '--quiet']),
    ]);
    const perCheck = /^passed\s+envelope\.content-type \w+ \(\d+ runs\)$/m;
    expect(log.stdout).not.toMatch(perCheck);
    expect(verbose.stdout).toMatch(perCheck);
    expect(quiet.stdout.trim()).toMatch(
      /^\d+ passed, 0 failed, 0 skipped in [\d.]+ s \(seed \d+\); \d+ requests, 0 throttled, 0 inconclusive$/,
    );
  });

  it('writes the json report to stdout with json:-, and nothing else there', async () => {
    const run = await pacu([...quick, '--reporter', 'json:-']);
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as { rules: Array<{ id: string }> };
    expect(new Set(report.rules.map((rule) => rule.id))).toEqual(new Set(['envelope.content-type']));
  });

  it('refuses a report path it cannot write before the run, with one line and exit 2', async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'pacu-report-')), 'a-file');
    writeFileSync(file, '');
    const run = await pacu([...quick, '--reporter', `junit:${file}/report.xml`]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      /^pacu: cannot write the junit report to .*\/a-file\/report\.xml: .*\/a-file is not a directory\n$/,
    );
    expect(run.stdout).toBe('');
  });
});

describe('where pacu check finds its target', () => {
  const unreachable = 'http://127.0.0.1:9/v3';

  it('reads pacu.config.json from the working directory without --config', async () => {
    const cwd = mkdtempSync(path.join(tmpdir(), 'pacu-config-'));
    writeFileSync(path.join(cwd, 'pacu.config.json'), JSON.stringify({ target: unreachable }));
    const run = await pacu(QUICK, { cwd });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`cannot reach target ${unreachable}`);
  });

  it('takes PACU_TARGET from the environment', async () => {
    const run = await pacu(QUICK, { env: { PACU_TARGET: unreachable } });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`cannot reach target ${unreachable}`);
  });

  it('gives up on a target that never answers after --timeout', async () => {
    // How long pacu held the unanswered request, seen by the server: the process's own start-up,
    // which a loaded machine stretches, is not part of it.
    const held: number[] = [];
    const silent = createServer((request) => {
      const arrived = performance.now();
      request.socket.once('close', () => held.push(performance.now() - arrived));
    });
    const port = await listen(silent);
    try {
      const run = await pacu([...QUICK, '--target', `http://127.0.0.1:${port}/v3`, '--timeout', '300']);
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(/timed out/);
      // Well under the 10 s default: the --timeout given was the one applied.
      await expect.poll(() => held.length).toBeGreaterThan(0);
      expect(Math.max(...held)).toBeLessThan(API_CLIENT_DEFAULTS.timeoutMs / 2);
    } finally {
      silent.closeAllConnections();
      silent.close();
    }
  });
});

describe('--header', () => {
  let mock: RunningMock;
  let proxy: Server;
  let proxyUrl = '';
  const seen: Array<IncomingMessage['headers']> = [];

  beforeAll(async () => {
    mock = await startMock({ clock: 'manual', log: () => {} });
    // A sandbox that wants an API key: it refuses requests without one, then answers as the mock.
    proxy = createServer(async (request, response) => {
      seen.push(request.headers);
      if (request.headers['x-api-key'] !== 'sandbox-key-1234') {
        response
          .writeHead(403, { 'content-type': 'application/json' })
          .end('{"success":false,"message":"no key"}');
        return;
      }
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      const body = Buffer.concat(chunks);
      const answer = await mock.request(request.url ?? '/', {
        method: request.method ?? 'GET',
        headers: Object.entries(request.headers).flatMap(([name, value]) =>
          typeof value === 'string' && name !== 'host' ? [[name, value] as [string, string]] : [],
        ),
        ...(body.length > 0 ? { body } : {}),
      });
      response.writeHead(answer.status, Object.fromEntries(answer.headers));
      response.end(Buffer.from(await answer.arrayBuffer()));
    });
    proxyUrl = `http://127.0.0.1:${await listen(proxy)}/v3`;
  });

  afterAll(async () => {
    proxy.closeAllConnections();
    proxy.close();
    await mock.close();
  });

  it('sends the header with every request and keeps its value out of the report', async () => {
    const run = await pacu([
      'check',
      '--target',
      proxyUrl,
      '--client-id',
      mock.demoClient.clientId,
      '--client-secret',
      mock.demoClient.clientSecret,
      '--rule',
      'auth.token-grant',
      '--runs',
      '3',
      '--header',
      'X-Api-Key: sandbox-key-1234',
      '--reporter',
      'json:-',
    ]);
    expect(run.code).toBe(0);
    expect(seen.length).toBeGreaterThan(1);
    expect(seen.every((headers) => headers['x-api-key'] === 'sandbox-key-1234')).toBe(true);
    expect(JSON.parse(run.stdout).summary).toMatchObject({ failed: 0 });
    expect(run.stdout).not.toContain('sandbox-key-1234');
  });
});
