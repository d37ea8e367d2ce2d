import { execFileSync, spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACU_PACT_DIR } from '../contracts/index.ts';
import type { DiffReport } from '../diff/index.ts';
import { DEFAULT_SPEC_FILE } from '../spec/index.ts';
import { freePort } from './helpers/free-port.ts';
import { startHalBroker } from './helpers/hal-broker.ts';
import { PACU_BIN } from './helpers/pacu-bin.ts';
import { runCli } from './helpers/run-cli.ts';

const NEXT = new URL('../docs/examples/openapi-next.yaml', import.meta.url).pathname;

/** pacu's payments pact, alone in a folder: its USD transfer reads the record's transaction_id. */
function paymentsPactReadingTransactionId(): { pact: Record<string, unknown>; dir: string } {
  const pact = JSON.parse(
    readFileSync(path.join(PACU_PACT_DIR, 'pacu-merchant-payments-pacu-api.json'), 'utf8'),
  );
  const transfer = pact.interactions.find(
    (i: { description: string }) => i.description === 'a USD transfer by ACH',
  );
  expect(transfer.response.body.content.data.transaction_id).toEqual(expect.any(String));
  const dir = mkdtempSync(path.join(tmpdir(), 'pacu-diff-pacts-'));
  writeFileSync(path.join(dir, 'pacu-merchant-payments-pacu-api.json'), JSON.stringify(pact));
  return { pact, dir };
}

/** `pacu` as users run it: a process, its exit code and both streams. */
function pacu(
  args: string[],
  cwd?: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [PACU_BIN, ...args], {
      cwd,
      env: { ...process.env, NO_COLOR: '1' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('pacu diff through the compiled bin', () => {
  it('exits 0 on identical descriptions', async () => {
    const run = await pacu(['diff', DEFAULT_SPEC_FILE, DEFAULT_SPEC_FILE]);
    expect(run.stderr).toBe('');
    expect(run.stdout).toContain('no changes');
    expect(run.code).toBe(0);
  });

  it('exits 1 on the example and streams the json report', async () => {
    const run = await pacu(['diff', DEFAULT_SPEC_FILE, NEXT, '--reporter', 'json:-']);
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout) as DiffReport;
    expect(report.failed).toBe(true);
    expect(report.changes.map((c) => c.check)).toEqual(
      expect.arrayContaining(['response-required-property-removed', 'transaction-status-added']),
    );
  });

  it('exits 2 with one line for a file that is missing or not OpenAPI', async () => {
    const missing = await pacu(['diff', DEFAULT_SPEC_FILE, '/no/such/openapi.yaml']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(
      /^pacu: cannot read the OpenAPI description \/no\/such\/openapi.yaml: ENOENT\n$/,
    );
    const dir = mkdtempSync(path.join(tmpdir(), 'pacu-diff-cli-'));
    const notOpenApi = path.join(dir, 'package.json');
    writeFileSync(notOpenApi, '{"name": "x"}');
    const wrong = await pacu(['diff', notOpenApi, DEFAULT_SPEC_FILE]);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr.trim().split('\n')).toHaveLength(1);
    expect(wrong.stderr).toContain('is not an OpenAPI 3 description');
  });
});

describe('pacu diff in process', () => {
  it("fails the default gate on an echoed required field removed from the record, quoting the description's two sentences", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'pacu-diff-echo-'));
    const next = path.join(dir, 'openapi.yaml');
    const spec = readFileSync(DEFAULT_SPEC_FILE, 'utf8');
    // The record's routing_number (its row, and its place in the echoed-fields list) is gone.
    const record = spec.indexOf('    UsdTransfer:\n');
    const row = spec.indexOf('        routing_number:\n', record);
    const without = `${spec.slice(0, row)}${spec.slice(spec.indexOf('        transaction_date:\n', row))}`;
    writeFileSync(
      next,
      without.replace(/(- recipient_name\n)\s+- routing_number\n(\s+- transfer_type)/, '$1$2'),
    );
    const run = await runCli(['diff', DEFAULT_SPEC_FILE, next]);
    expect(run.stdout).toContain(
      'no longer carries `data.routing_number`, a required request field the description says the response echoes',
    );
    expect(run.stdout).toContain(
      `the description: "| routing_number | string | yes | Routing number of the recipient's bank |" and "The response echoes the request fields and adds transaction_date, transaction_id and transaction_status."`,
    );
    expect(run.stdout).toMatch(/^FAILED: .*--profile documented\)$/m);
    expect(run.code).toBe(1);
  });

  it('writes markdown ready for a pull-request comment', async () => {
    const run = await runCli(['diff', DEFAULT_SPEC_FILE, NEXT, '--reporter', 'markdown:-']);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^## pacu diff: ❌ failed\n/);
    expect(run.stdout).toMatch(/^### ❌ \d+ breaking$/m);
    expect(run.stdout).toContain('no longer carries `data.transaction_id`: clients that read it break');
    expect(run.stdout).toMatch(/^<details><summary>\d+ safe<\/summary>$/m);
  });

  it('names the consumers a breaking change breaks, from their pacts', async () => {
    const run = await runCli([
      'diff',
      DEFAULT_SPEC_FILE,
      NEXT,
      '--pacts',
      paymentsPactReadingTransactionId().dir,
      '--fail-on',
      'used',
      '--reporter',
      'json:-',
    ]);
    const report = JSON.parse(run.stdout) as DiffReport;
    const removed = report.changes.find(
      (c) => c.check === 'response-required-property-removed' && c.operation?.kind === 'operation',
    );
    expect(removed?.usedBy?.map((use) => use.consumer)).toContain('pacu-merchant-payments');
    expect(run.code).toBe(1);
  });

  it('takes the pacts from a Pact Broker URL, and a broker it cannot read is one line and exit 2', async () => {
    const { pact } = paymentsPactReadingTransactionId();
    const broker = await startHalBroker('pacu-api', [{ consumer: 'pacu-merchant-payments', pact }]);
    try {
      const run = await runCli([
        'diff',
        DEFAULT_SPEC_FILE,
        NEXT,
        '--pacts',
        broker.url,
        '--fail-on',
        'used',
        '--reporter',
        'json:-',
      ]);
      expect(run.stderr).toBe('');
      expect(run.code).toBe(1);
      const report = JSON.parse(run.stdout) as DiffReport;
      expect(report.changes.flatMap((c) => c.usedBy ?? []).map((use) => use.consumer)).toContain(
        'pacu-merchant-payments',
      );
      expect(broker.calls.map((call) => call.method)).not.toContain('PUT');
    } finally {
      await broker.close();
    }
    const nobody = `http://127.0.0.1:${await freePort()}`;
    const gone = await runCli(['diff', DEFAULT_SPEC_FILE, NEXT, '--pacts', nobody, '--fail-on', 'used']);
    expect(gone.code).toBe(2);
    expect(gone.stderr).toMatch(
      /^pacu: cannot reach the Pact Broker at http:\/\/127\.0\.0\.1:\d+: connection refused\. Is the --pacts URL right and the broker up\?\n$/,
    );
  });

  it('--fail-on used passes when the recorded traffic never reached what broke', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'pacu-diff-cov-'));
    const coverage = path.join(dir, 'coverage.json');
    writeFileSync(
      coverage,
      JSON.stringify({
        operations: [{ operationId: 'listUsers', statuses: { 200: 4 }, missing: [] }],
        events: [],
      }),
    );
    const run = await runCli([
      'diff',
      DEFAULT_SPEC_FILE,
      NEXT,
      '--coverage',
      coverage,
      '--fail-on',
      'used',
      '--reporter',
      'junit:-',
    ]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('<testsuites name="pacu diff"');
    expect(run.stdout).toContain('failures="0"');
  });

  it('--base takes the old description from git', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'pacu-diff-git-'));
    const file = path.join(dir, 'openapi.yaml');
    copyFileSync(DEFAULT_SPEC_FILE, file);
    const git = (...args: string[]): void => {
      execFileSync('git', ['-c', 'user.name=pacu', '-c', 'user.email=pacu@example.com', ...args], {
        cwd: dir,
        stdio: 'ignore',
      });
    };
    git('init', '-q');
    git('add', 'openapi.yaml');
    git('commit', '-qm', 'v1');
    writeFileSync(file, readFileSync(NEXT, 'utf8'));
    const run = await runCli(['diff', '--base', 'HEAD', file, '--reporter', 'json:-']);
    expect(run.code).toBe(1);
    expect((JSON.parse(run.stdout) as DiffReport).old).toMatch(/^HEAD:/);
    const unknown = await runCli(['diff', '--base', 'no-such-ref', file]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^pacu: cannot read no-such-ref:\S+openapi\.yaml from git: .+\n$/);
  });

  it('--base with a file whose folder does not exist says so, not "spawn git ENOENT"', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'pacu-diff-nofolder-'));
    const run = await runCli(['diff', '--base', 'origin/main', path.join(dir, 'spec/openapi.yaml')]);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      `pacu: cannot read origin/main:${path.join(dir, 'spec/openapi.yaml')} from git: the folder ${path.join(dir, 'spec')} does not exist (--base reads the file at that path inside a git checkout)\n`,
    );
  });

  it('refuses html, and a lone file without --base', async () => {
    expect((await runCli(['diff', DEFAULT_SPEC_FILE, NEXT, '--reporter', 'html:-'])).code).toBe(2);
    const lone = await runCli(['diff', DEFAULT_SPEC_FILE]);
    expect(lone.code).toBe(2);
    expect(lone.stderr).toContain('needs two descriptions');
  });
});
