import { describe, expect, it } from 'vitest';
import { startMock } from '../mock/index.ts';
import { ConfigError } from '../spec/index.ts';
import { assertConformance, resolveTargetConfig, runChecks } from '../suites/index.ts';
import { checkArgs, closers, oneLine, provider, run } from './helpers/check-run.ts';
import { startHtmlServer } from './providers/html-server.ts';
import { checkTestProvider, failedRuleIds, failuresIn, TEST_SEED } from './providers/run-against.ts';

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
    const result = await run([...checkArgs(target), '--runs', '3']);
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
    const result = await run([...checkArgs(target), '--control-url', html.origin, '--profile', 'strict']);
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

  it('finding 7: a token that dies early is renewed once and retried, the report says so, and only auth.token-refused-early fails', async () => {
    // pacu's style answers 401 to a dead token; the token still claims 3600 s, so the retry saves every
    // other rule. It dies after uses, not seconds: a run faster than a token's life would prove nothing.
    // A token refused while its stated life lasts is the provider's finding, never pacu's.
    const report = await checkTestProvider(
      { style: 'pacu', tokensDieAfterUses: 150 },
      'documented',
      undefined,
      40,
    );
    expect(failedRuleIds(report), failuresIn(report).join('\n')).toEqual(['auth.token-refused-early']);
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
      /^needs target\.ids\.accountId, or a user to create one for with createAccount \(needs target\.ids\.userId \(GET \/users answered HTTP 200 with no user\)\)$/,
    );
    expect(reason('positive.accepted', 'createAccount')).toMatch(/^needs target\.ids\.userId \(GET \/users/);
    expect(reason('positive.accepted', 'getPushToCardPayment')).toMatch(
      /^needs target\.ids\.pushToCardId \(no operation creates the record it names\)$/,
    );
    for (const rule of report.rules)
      expect(rule.skipReason ?? '').not.toMatch(/needs target\.ids\.accountId \(no operation creates/);
  });
});
