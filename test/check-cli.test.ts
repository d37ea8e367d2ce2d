import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { afterEach, describe, expect, it } from 'vitest';
import { main } from '../cli/main.ts';
import type { Report } from '../suites/index.ts';
import { cardIdArgs } from './helpers/check-run.ts';
import { TEST_SEED } from './providers/run-against.ts';
import { startTestProvider, type TestProvider } from './providers/test-provider.ts';

let provider: TestProvider | undefined;
afterEach(async () => {
  await provider?.close();
  provider = undefined;
});

async function run(...args: string[]) {
  let stdout = '';
  let stderr = '';
  const exitCode = await main(args, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
  return { exitCode, stdout, stderr };
}

async function targetFlags(breaks?: string, withIds = true): Promise<string[]> {
  provider = await startTestProvider({ style: 'different', ...(breaks ? { breaks } : {}) });
  const ids = withIds ? [...cardIdArgs(provider), '--account-id', provider.ids.accountId] : [];
  return [
    '--target',
    provider.url,
    '--client-id',
    provider.client.clientId,
    '--client-secret',
    provider.client.clientSecret,
    '--seed',
    String(TEST_SEED),
    '--runs',
    '5',
    ...ids,
  ];
}

const tempDir = (): string => mkdtempSync(path.join(tmpdir(), 'pacu-check-'));

describe('pacu check exit codes', () => {
  it('exits 0 when every checked rule passed, printing the matrix and the seed', async () => {
    const result = await run('check', ...(await targetFlags()));
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain(`seed ${TEST_SEED}`);
    expect(result.stdout).toMatch(/operation\s+envelope\s+auth\s+idempotency\s+errors\s+positive/);
  });

  it('exits 1 when a rule failed and shows the failure with curl and replay id', async () => {
    const result = await run('check', ...(await targetFlags('errors.unknown-id')));
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toContain('errors.unknown-id on getVirtualCard');
    expect(result.stdout).toMatch(/curl: +curl -i -X GET '/);
    expect(result.stdout).toMatch(/replay: +pacu check --replay errors\.unknown-id\/getVirtualCard\/\d+\//);
  });

  it('exits 2 with one line when the target cannot be reached', async () => {
    const result = await run(
      'check',
      '--target',
      'http://127.0.0.1:9/v3',
      '--client-id',
      'a',
      '--client-secret',
      'b',
    );
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(
      /^pacu: cannot reach target http:\/\/127\.0\.0\.1:9\/v3: connection refused\. .*\n$/,
    );
  });

  it('exits 2 for an unreachable target even when no credentials were given (nothing is skipped silently)', async () => {
    const result = await run('check', '--target', 'http://127.0.0.1:9/v3');
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(
      /^pacu: cannot reach target http:\/\/127\.0\.0\.1:9\/v3: connection refused\. .*\n$/,
    );
    expect(result.stdout).not.toContain('skipped');
  });

  it.each([
    [['--reporter', 'xml:out.xml'], 'pacu: unknown reporter "xml:out.xml"'],
    [['--reporter', 'json'], 'pacu: reporter json needs a file'],
    [['--profile', 'lenient'], "pacu: option '--profile <profile>' argument 'lenient' is invalid"],
    [['--replay', 'nonsense'], 'pacu: "nonsense" is not a failure id'],
    [
      ['--replay', 'positive.accepted@auth.bearer-required/usdTransfer/1/0'],
      'pacu: positive.accepted judges only its own cases; replay positive.accepted/usdTransfer',
    ],
    [
      ['--replay', 'envelope.error-shape@auth.bearer-required/getAccessToken/1/0'],
      'pacu: no rule auth.bearer-required on getAccessToken to replay',
    ],
    [['--target', 'ftp://x/v3'], 'pacu: target "ftp://x/v3" must be an http or https URL'],
  ])('exits 2 for %j', async (args, line) => {
    const result = await run('check', ...args);
    expect(result.exitCode).toBe(2);
    expect(result.stderr.split('\n')[0]).toContain(line);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  });
});

describe('pacu check reports', () => {
  it('writes json, JUnit, html and markdown reports that parse', async () => {
    const dir = tempDir();
    const files = {
      json: `${dir}/r.json`,
      junit: `${dir}/r.xml`,
      html: `${dir}/r.html`,
      markdown: `${dir}/r.md`,
    };
    const reporters = Object.entries(files).flatMap(([kind, file]) => ['--reporter', `${kind}:${file}`]);
    const result = await run('check', ...(await targetFlags('positive.echoes-request')), ...reporters);
    expect(result.exitCode).toBe(1);

    const report = JSON.parse(readFileSync(files.json, 'utf8')) as Report;
    expect(report).toMatchObject({
      target: provider?.url,
      seed: TEST_SEED,
      summary: { failed: expect.any(Number) },
    });
    for (const rule of report.rules) {
      expect(rule).toEqual(
        expect.objectContaining({
          id: expect.any(String),
          category: expect.any(String),
          operation: expect.any(String),
          profile: expect.any(String),
          status: expect.any(String),
          runs: expect.any(Number),
        }),
      );
    }
    const failed = report.rules.filter((rule) => rule.status === 'failed');
    expect(failed.map((rule) => rule.id)).toEqual(['positive.echoes-request']);
    expect(failed[0]?.failure).toMatchObject({
      reason: expect.stringContaining('recipient_name'),
      response: { status: 200 },
    });

    const xml = readFileSync(files.junit, 'utf8');
    expect(XMLValidator.validate(xml)).toBe(true);
    const junit = new XMLParser({ ignoreAttributes: false }).parse(xml);
    const suites = [junit.testsuites.testsuite].flat();
    const cases = suites.flatMap((suite: { testcase: unknown }) => [suite.testcase].flat()) as Array<
      Record<string, unknown>
    >;
    expect(cases).toHaveLength(report.rules.length);
    expect(Number(junit.testsuites['@_failures'])).toBe(report.summary.failed);
    expect(cases.filter((testcase) => testcase.failure)).toHaveLength(failed.length);

    const html = readFileSync(files.html, 'utf8');
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).toContain('<svg');
    expect(html).toContain('<strong>positive.echoes-request</strong> on <code>usdTransfer</code>');
    expect(readFileSync(files.markdown, 'utf8')).toContain('| `usdTransfer` |');
  });

  it('reports a rule whose id the user did not give as skipped, with the flag to pass', async () => {
    const dir = tempDir();
    const result = await run(
      'check',
      ...(await targetFlags(undefined, false)),
      '--reporter',
      `json:${dir}/r.json`,
    );
    expect(result.exitCode).toBe(0);
    const report = JSON.parse(readFileSync(`${dir}/r.json`, 'utf8')) as Report;
    const card = report.rules.find(
      (rule) => rule.id === 'positive.accepted' && rule.operation === 'getVirtualCard',
    );
    expect(card).toMatchObject({ status: 'skipped', skipReason: expect.stringContaining('--card-id') });
  });
});

describe('pacu check --replay', () => {
  it('reruns exactly the failing case from the json report', async () => {
    const dir = tempDir();
    const flags = await targetFlags('errors.invalid-body');
    await run('check', ...flags, '--reporter', `json:${dir}/r.json`);
    const report = JSON.parse(readFileSync(`${dir}/r.json`, 'utf8')) as Report;
    const original = report.rules.find((rule) => rule.failure)?.failure;
    expect(original?.id).toMatch(/^errors\.invalid-body\//);

    const replay = await run(
      'check',
      ...flags,
      '--replay',
      original?.id ?? '',
      '--report-file',
      `${dir}/r.json`,
      '--reporter',
      `json:${dir}/replay.json`,
    );
    expect(replay.exitCode).toBe(1);
    const replayed = JSON.parse(readFileSync(`${dir}/replay.json`, 'utf8')) as Report;
    expect(replayed.rules).toHaveLength(1);
    expect(replayed.rules[0]?.failure?.id).toBe(original?.id);
    // The same generated case; only the per-run reference differs.
    const withoutReference = (value: unknown) => {
      const { body, mutation } = value as { body: Record<string, unknown>; mutation: string };
      const { reference: _fresh, ...rest } = body;
      return { rest, mutation };
    };
    expect(withoutReference(replayed.rules[0]?.failure?.counterexample)).toEqual(
      withoutReference(original?.counterexample),
    );
  });

  it('refuses a failure id the report does not hold', async () => {
    const dir = tempDir();
    const flags = await targetFlags();
    await run('check', ...flags, '--reporter', `json:${dir}/r.json`);
    const result = await run(
      'check',
      ...flags,
      '--replay',
      'errors.invalid-body/usdTransfer/1/0',
      '--report-file',
      `${dir}/r.json`,
    );
    expect(result).toMatchObject({
      exitCode: 2,
      stderr: expect.stringContaining('has no failure errors.invalid-body/usdTransfer/1/0'),
    });
  });
});
