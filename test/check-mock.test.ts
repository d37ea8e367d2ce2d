import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { embeddedMockTarget } from '../cli/open-target.ts';
import { type RunningMock, startMock } from '../mock/index.ts';
import { resolveTargetConfig, runChecks } from '../suites/index.ts';
import { failuresIn, TEST_RUNS, TEST_SEED } from './providers/run-against.ts';

let mock: RunningMock;

beforeAll(async () => {
  mock = await startMock({ clock: 'manual', log: () => {} });
});
afterAll(() => mock.close());

const target = () => resolveTargetConfig(embeddedMockTarget(mock));

describe('the pacu mock keeps every rule', () => {
  it.each(['documented', 'strict'] as const)('under the %s profile', async (profile) => {
    const report = await runChecks({ target: target(), profile, seed: TEST_SEED, runs: TEST_RUNS });
    expect(failuresIn(report)).toEqual([]);
    if (profile === 'strict') expect(report.summary.skipped).toBe(0);
  });

  it('finds a user and creates a funding account itself when no ids are given', async () => {
    const report = await runChecks({
      target: resolveTargetConfig({ target: mock.url, ...mock.demoClient, scopes: 'card,us_account' }),
      seed: TEST_SEED,
      runs: 3,
      rules: ['positive.accepted'],
    });
    const byOperation = Object.fromEntries(report.rules.map((rule) => [rule.operation, rule]));
    expect(byOperation.usdTransfer?.status).toBe('passed');
    expect(byOperation.getP2pStatus?.status).toBe('passed');
    expect(byOperation.getVirtualCard).toMatchObject({
      status: 'skipped',
      skipReason: 'needs target.ids.cardId (no operation creates the record it names)',
    });
  });
});
