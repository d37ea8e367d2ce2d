import type { Report } from '../report/report.ts';
import type { CheckOptions } from './check-options.ts';
import { runChecks } from './run-checks.ts';

/** Thrown by {@link assertConformance}: the report rides along for anyone who wants the details. */
export class ConformanceError extends Error {
  readonly report: Report;

  constructor(report: Report) {
    const failed = report.rules.filter((rule) => rule.status === 'failed');
    super(
      `${failed.length} pacu rule(s) failed against ${report.target} (seed ${report.seed}):\n${failed
        .map(
          (rule) => `  ${rule.id} on ${rule.operation}: ${rule.failure?.reason}\n    ${rule.failure?.curl}`,
        )
        .join('\n')}`,
    );
    this.name = 'ConformanceError';
    this.report = report;
  }
}

/**
 * {@link runChecks}, throwing when a rule fails: for use inside vitest or any test runner.
 *
 * @example
 * it('our sandbox conforms', () => assertConformance({ target, runs: 20 }));
 */
export async function assertConformance(options: CheckOptions): Promise<Report> {
  const report = await runChecks(options);
  if (report.summary.failed > 0) throw new ConformanceError(report);
  return report;
}
