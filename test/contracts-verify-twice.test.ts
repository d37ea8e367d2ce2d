import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyPacts } from '../contracts/index.ts';
import { resolveTargetConfig } from '../suites/index.ts';
import { startTestProvider, type TestProvider } from './providers/test-provider.ts';

// A sandbox lives longer than one verification: the second run must not meet the first run's
// transfers (a reused reference with another body is answered 409 by this provider, as by pacu's).
let provider: TestProvider;
beforeAll(async () => {
  provider = await startTestProvider({ style: 'pacu' });
});
afterAll(async () => {
  await provider.close();
});

describe('pacu verify twice against the same long-lived provider', () => {
  it('passes both times, in both profiles: every transfer of a pact carries a reference of its own', async () => {
    // No account id given: pacu finds (or makes) one per run, so a fixed reference would be reused with another body.
    const { accountId: _accountId, ...ids } = provider.ids;
    const target = resolveTargetConfig({ target: provider.url, ...provider.client, ...ids });
    for (const profile of ['documented', 'strict', 'documented', 'strict'] as const) {
      const report = await verifyPacts({ target, profile });
      const failures = report.rules
        .filter((rule) => rule.status === 'failed')
        .map((rule) => `${rule.id}: ${rule.failure?.reason}`);
      expect(failures, profile).toEqual([]);
      expect(report.summary.passed).toBeGreaterThan(0);
    }
  });
});
