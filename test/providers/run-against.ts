import type { Profile } from '../../spec/index.ts';
import { type Report, resolveTargetConfig, runChecks } from '../../suites/index.ts';
import { type ProviderStyle, startTestProvider, type TestProviderOptions } from './test-provider.ts';

/** Pinned so the suite is deterministic; few runs so it stays fast. */
export const TEST_SEED = 424242;
export const TEST_RUNS = 8;

/** Start a test provider, check it with every rule, close it. */
export async function checkTestProvider(
  style: ProviderStyle | TestProviderOptions,
  profile: Profile,
  breaks?: string,
  runs = TEST_RUNS,
): Promise<Report> {
  const options: TestProviderOptions =
    typeof style === 'string' ? { style, ...(breaks ? { breaks } : {}) } : style;
  const provider = await startTestProvider(options);
  try {
    return await runChecks({
      target: resolveTargetConfig({
        target: provider.url,
        ...provider.client,
        ...(options.noUsers ? { cardId: provider.ids.cardId } : provider.ids),
        ...(options.style === 'pacu' ? { controlUrl: provider.origin } : {}),
      }),
      profile,
      seed: TEST_SEED,
      runs,
    });
  } finally {
    await provider.close();
  }
}

/** `rule on operation: reason` for every failed result, for readable assertions. */
export const failuresIn = (report: Report): string[] =>
  report.rules
    .filter((rule) => rule.status === 'failed')
    .map((rule) => `${rule.id} on ${rule.operation}: ${rule.failure?.reason}`);

/** The ids of the rules that failed, once each. */
export const failedRuleIds = (report: Report): string[] => [
  ...new Set(report.rules.filter((rule) => rule.status === 'failed').map((rule) => rule.id)),
];
