import { verifyPacts } from '../../../contracts/index.ts';
import { type Report, resolveTargetConfig, runChecks, type TargetConfig } from '../../../suites/index.ts';
import type { SpaceProvider } from './space-provider.ts';

/** What `pacu check --target … --client-id … --card-id …` would be given for this provider. */
export function spaceTarget(provider: SpaceProvider): TargetConfig {
  return resolveTargetConfig({ target: provider.url, ...provider.client, ...provider.ids });
}

/** The same as CLI flags, for a run through `cli/bin.js`. */
export function spaceFlags(provider: SpaceProvider): string[] {
  return [
    '--target',
    provider.url,
    '--client-id',
    provider.client.clientId,
    '--client-secret',
    provider.client.clientSecret,
    '--card-id',
    provider.ids.cardId,
    '--card-transaction-id',
    provider.ids.cardTransactionId,
    '--push-to-card-id',
    provider.ids.pushToCardId,
  ];
}

export interface SpaceCheck {
  readonly seed: number;
  /** @default 100 (pacu's default) */
  readonly runs?: number;
  readonly concurrency?: number;
}

/** `pacu check` (profile documented) against a space provider, in-process. */
export function checkSpace(
  provider: SpaceProvider,
  { seed, runs, concurrency }: SpaceCheck,
): Promise<Report> {
  return runChecks({
    target: spaceTarget(provider),
    profile: 'documented',
    seed,
    ...(runs !== undefined ? { runs } : {}),
    ...(concurrency !== undefined ? { concurrency } : {}),
  });
}

/** `pacu verify` with the shipped pacts (profile documented) against a space provider, in-process. */
export function verifySpace(provider: SpaceProvider): Promise<Report> {
  return verifyPacts({ target: spaceTarget(provider) });
}

/** `rule on operation: reason` for every failure of a report. */
export const failuresOf = (report: Report): string[] =>
  report.rules
    .filter((rule) => rule.status === 'failed')
    .map((rule) => `${rule.id} on ${rule.operation}: ${rule.failure?.reason ?? ''}`);

/** The ids of the rules that failed, once each, sorted. */
export const failedRules = (report: Report): string[] =>
  [...new Set(report.rules.filter((rule) => rule.status === 'failed').map((rule) => rule.id))].sort();
