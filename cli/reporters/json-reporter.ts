import type { Report } from '../../suites/index.ts';

/**
 * The json report: the {@link Report} as is. It holds at least `target`, `seed`, `summary`
 * {passed, failed, skipped} and `rules` [{id, category, operation, profile, status, runs, failure?}];
 * `pacu check --replay <id> --report-file <file>` reads it back.
 */
export function renderJson(report: Report): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}
