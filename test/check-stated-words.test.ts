import { afterEach, describe, expect, it } from 'vitest';
import type { Profile } from '../spec/index.ts';
import { type Report, type RuleResult, resolveTargetConfig, runChecks } from '../suites/index.ts';
import { TEST_SEED } from './providers/run-against.ts';
import { startTestProvider, type TestProvider, type TestProviderOptions } from './providers/test-provider.ts';

// A verdict holds only what the description's words state. Each case is a provider that
// makes one choice, checked by the rules that judge it.

const started: TestProvider[] = [];
afterEach(async () => {
  for (const provider of started.splice(0)) await provider.close();
});

async function check(options: TestProviderOptions, profile: Profile, rules: string[]): Promise<Report> {
  const provider = await startTestProvider(options);
  started.push(provider);
  return runChecks({
    target: resolveTargetConfig({
      target: provider.url,
      ...provider.client,
      ...provider.ids,
      ...(options.style === 'pacu' ? { controlUrl: provider.origin } : {}),
    }),
    profile,
    seed: TEST_SEED,
    runs: 6,
    rules,
  });
}

const failed = (report: Report, id?: string): RuleResult[] =>
  report.rules.filter((rule) => rule.status === 'failed' && (id === undefined || rule.id === id));
const said = (report: Report): string =>
  failed(report)
    .map((rule) => `${rule.id} on ${rule.operation} (${rule.profile}): ${rule.failure?.reason}`)
    .join('\n');

describe('finding 2: a JSON body labelled text/plain is refused only by pacu decision', () => {
  it('a sandbox that accepts it passes errors.malformed-request in the documented profile', async () => {
    const report = await check({ style: 'different', lenientContentType: true }, 'documented', [
      'errors.malformed-request',
    ]);
    expect(said(report)).toBe('');
    expect(report.rules.filter((rule) => rule.status === 'passed').length).toBeGreaterThan(0);
  });

  it('under strict it fails, labelled strict', async () => {
    const report = await check({ style: 'pacu', lenientContentType: true }, 'strict', [
      'errors.malformed-request',
    ]);
    expect(failed(report).length).toBeGreaterThan(0);
    for (const rule of failed(report)) {
      expect(rule.profile).toBe('strict');
      expect(rule.failure?.reason).toMatch(/^Content-Type text\/plain: /);
    }
  });
});

describe('finding 3: the error envelope holds only message and success', () => {
  it('an error answer with "data": null fails envelope.error-shape', async () => {
    const report = await check({ style: 'different', errorExtraField: true }, 'documented', [
      'envelope.error-shape',
    ]);
    const failures = failed(report, 'envelope.error-shape');
    expect(failures.length).toBeGreaterThan(0);
    expect(failures[0]?.profile).toBe('documented');
    expect(failures[0]?.failure?.reason).toMatch(/data/);
  });
});

describe('finding 4: the granted scope is echoed in data.scope', () => {
  it.each([
    ['the names separated by spaces', 'spaces', 'auth.token-grant'],
    ['an empty string', 'empty', 'auth.token-grant'],
    ['a name never asked for nor shown (default)', 'default', 'auth.token-grant'],
    ['every scope of the client while granting only what was asked', 'constant', 'auth.granted-scope'],
  ] as const)('a token answer whose scope is %s fails a default run', async (_name, scopeEcho, rule) => {
    const report = await check({ style: 'different', scopeEcho }, 'documented', ['auth']);
    expect(failed(report, rule).length, said(report)).toBeGreaterThan(0);
    expect(failed(report, rule)[0]?.profile).toBe('documented');
  });

  it.each([
    ['grants what is asked', {}],
    ['grants every scope of the client whatever is asked, and says so', { grantsEveryScope: true }],
    ['grants the whole scope set only', { wholeScopeOnly: true }],
  ])('a provider that %s passes the documented auth rules', async (_name, knobs) => {
    const report = await check({ style: 'different', ...knobs }, 'documented', ['auth']);
    expect(said(report)).toBe('');
  });
});

describe('finding 5: under strict, a failure only a pacu decision sees is labelled strict', () => {
  it('timestamps written +00:00 fail envelope.success-shape as strict, never as documented', async () => {
    const report = await check({ style: 'pacu', offsetTimestamps: true }, 'strict', [
      'envelope.success-shape',
    ]);
    const failures = failed(report, 'envelope.success-shape');
    expect(failures.length).toBeGreaterThan(0);
    for (const rule of failures) {
      expect(rule.profile, rule.failure?.reason).toBe('strict');
      expect(rule.failure?.profile).toBe('strict');
    }
  });

  it('any rule: positive.accepted refused on the decided paging parameters is labelled strict', async () => {
    const report = await check({ style: 'pacu', refusesQuery: true }, 'strict', ['positive.accepted']);
    const failures = failed(report, 'positive.accepted');
    expect(failures.map((rule) => rule.operation)).toEqual(['listUsers']);
    expect(failures[0]?.profile).toBe('strict');
  });

  it('the same provider passes the documented profile', async () => {
    const report = await check({ style: 'pacu', offsetTimestamps: true }, 'documented', [
      'envelope.success-shape',
    ]);
    expect(said(report)).toBe('');
  });
});

describe('finding 1: the record echoes the fields the request carried, and only those', () => {
  it('a transfer record without description, when the request had none, passes positive.echoes-request', async () => {
    const report = await check({ style: 'different', omitsAbsentDescription: true }, 'documented', [
      'positive.echoes-request',
    ]);
    expect(said(report)).toBe('');
  });

  it('a record that changes a field the request carried fails it', async () => {
    const report = await check({ style: 'different', breaks: 'positive.echoes-request' }, 'documented', [
      'positive.echoes-request',
    ]);
    expect(failed(report, 'positive.echoes-request').length).toBeGreaterThan(0);
  });
});

describe('FINDINGS-space: a payout request carries every field the description lists', () => {
  it('a sandbox requiring every wallet payout field passes positive.accepted', async () => {
    const report = await check({ style: 'different', walletRequiresEveryField: true }, 'documented', [
      'positive.accepted',
    ]);
    expect(said(report)).toBe('');
  });
});

describe('Errors 2: missing required fields and invalid values lead to 400', () => {
  it('a sandbox answering 422 to a body that fails validation fails errors.invalid-body (FINDINGS-independent missing-field-422)', async () => {
    const report = await check({ style: 'different', invalidBodyStatus: 422 }, 'documented', [
      'errors.invalid-body',
    ]);
    expect(said(report)).toMatch(/errors\.invalid-body on \w+ \(documented\): .*HTTP 422, expected 400/);
  });
});

describe('FINDINGS-independent: amounts and required fields', () => {
  it('a sandbox capping a payment at 25,000 passes positive.accepted ("amount bounds … not shown")', async () => {
    const report = await check({ style: 'different', amountCap: 25_000 }, 'documented', [
      'positive.accepted',
    ]);
    expect(said(report)).toBe('');
  });

  it('a sandbox accepting a transfer without routing_number fails errors.invalid-body at 1 run', async () => {
    const provider = await startTestProvider({ style: 'different', routingNumberOptional: true });
    started.push(provider);
    const report = await runChecks({
      target: resolveTargetConfig({ target: provider.url, ...provider.client, ...provider.ids }),
      seed: TEST_SEED,
      runs: 1,
      rules: ['errors.invalid-body'],
    });
    const failure = failed(report, 'errors.invalid-body').find((rule) => rule.operation === 'usdTransfer');
    expect(failure?.failure?.reason).toMatch(/^routing_number missing: /);
  });
});
