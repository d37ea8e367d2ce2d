import { ConformanceError, type Report } from '../suites/index.ts';
import { checkPactsAgainstSpec, type PactSpecCheckOptions, pactSpecReport } from './check-against-spec.ts';
import { type VerifyPactsOptions, verifyPacts } from './verify-pacts.ts';

/**
 * {@link verifyPacts}, throwing a `ConformanceError` when an interaction fails: for a test runner.
 *
 * @example
 * it('our pacts hold against the pacu mock', () => assertPactsVerified({ target, pacts: ['pacts/'] }));
 */
export async function assertPactsVerified(options: VerifyPactsOptions): Promise<Report> {
  const report = await verifyPacts(options);
  if (report.summary.failed > 0) throw new ConformanceError(report);
  return report;
}

/**
 * {@link checkPactsAgainstSpec}, throwing a `ConformanceError` that lists every finding.
 *
 * @example
 * it('our pacts agree with the spec', () => assertPactsAgreeWithSpec(['pacts/']));
 */
export async function assertPactsAgreeWithSpec(
  pactPaths: readonly string[],
  options: PactSpecCheckOptions = {},
): Promise<Report> {
  const report = pactSpecReport(await checkPactsAgainstSpec(pactPaths, options), new Date());
  if (report.summary.failed > 0) throw new ConformanceError(report);
  return report;
}
